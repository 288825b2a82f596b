// v2-eval-recorded-fixtures/0252-d-derived-entries — RFC 0252 §D: every derived entry is walked.
//
// Legs:
//   1. openwop.requirement.0252.derived-entries-walked  the derived entries exclude the source's delegate calls, each
//                                   is consumed once (two identical calls get the two recorded
//                                   answers in order), and the cursor resets per trial (§D)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A), and trials.

import { jsonDeepEqual } from '../../lib/json-value.ts';
import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import { RECORDED } from '../support/recorded.ts';
import { observeEvalRun, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { OUTCOME_UNSERVED, trialAnswers } from '../support/answers.ts';
/** Two identical counter incs of the target agent and a delegate's echo, all live. */
const REPEAT_SOURCE = 'conformance-eval-recorded-repeat-source';
/** The two incs and, by the target agent itself, the echo; two trials. */
const REPEAT_REPLAY = 'conformance-eval-recorded-repeat-replay';

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.derived-entries-walked',
    title: "the entries derived from a source exclude its delegates' calls, are each consumed once, and are walked afresh in every trial",
    clause: 'RFC 0252 §D',
    rules: {
      'delegate-excluded': 'RFC 0252 §D ("excluding delegates")',
      'repeated-calls-consumed-once': 'RFC 0252 §D, RFC 0244 §D (each entry consumed once)',
      'cursor-reset-per-trial': 'RFC 0252 §D, RFC 0244 §B (the cursor resets per trial)',
    },
    needs: { facet: [...RECORDED, 'trials'], fixtures: [REPEAT_SOURCE, REPEAT_REPLAY] },
    chain: 6,
    async run(check, target) {
      const source = requireCompleted(check, await sharedEvalRun(target, REPEAT_SOURCE));
      const replay = requireCompleted(
        check,
        await observeEvalRun(target, REPEAT_REPLAY, { fixtureRuns: { repeat: source.runId } }, target.client, {
          fixtureRunSources: { repeat: source.events },
        }),
      );
      // The source's own two incs answered n+1 then n+2 (identical args, different answers).
      const sourceAnswers = trialAnswers(source.events, 'repeat');
      const replayAnswers = trialAnswers(replay.events, 'repeat');
      if (!sourceAnswers.known || !replayAnswers.known) return check.inapplicable(OUTCOME_UNSERVED);
      const recorded = sourceAnswers.byTrial.get(0)?.slice(0, 2) ?? [];
      need(
        check,
        recorded.length === 2 && !jsonDeepEqual(recorded[0], recorded[1]),
        'the source recorded two different answers to its two identical incs',
        recorded,
      );
      const trials = replayAnswers.byTrial;
      const count = (replay.fixture.suite.trials as { count: number }).count;
      need(check, trials.size === count, `the replay scores ${count} trials`, [...trials.keys()]);
      const task = summaryTask(replay.summary, 'repeat');
      check.rule('delegate-excluded');
      // The echo only the source's delegate made is no derived entry: the target's own echo misses
      // in every trial and fails it closed.
      for (let i = 0; i < count; i++) {
        const echo = trials.get(i)?.[2] as { error?: unknown } | undefined;
        check.ok(
          echo?.error !== undefined && echo.error !== null,
          `trial ${i}: the echo the source's delegate made is no derived entry, so it misses with a tool error`,
          echo,
        );
      }
      check.equal(task?.passed, false, 'the task fails closed');
      check.rule('repeated-calls-consumed-once');
      check.equal(trials.get(0)?.slice(0, 2), recorded, "trial 0: the two identical incs are served the source's two answers, in order");
      check.rule('cursor-reset-per-trial');
      for (let i = 1; i < count; i++) check.equal(trials.get(i)?.slice(0, 2), recorded, `trial ${i}: the incs are served the source's answers afresh`);
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-d-derived-entries.ts', hostLegs);
