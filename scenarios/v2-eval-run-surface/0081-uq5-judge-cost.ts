// v2-eval-run-surface/0081-uq5-judge-cost — RFC 0081 UQ 5 (resolved: a judge's cost is in
// totalCostUsd) with RFC 0244 §C (judge calls are never efficiency), on the scripted judge
// (CONTRACT §3) of rubric tasks.
//
// Legs:
//   1. openwop.requirement.0081.judge-cost-attributed   (UQ 5) the judge's provider.usage, known by
//                                    its provider wherever it stands, is in totalCostUsd and in no
//                                    efficiency member.
// Gate: the leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixture it names.
// The leg asserts against the reference grade recomputed from the host's own event log, and that
// grade against what the scripted agent's and judge's contract produces (the expectedGrade).

import { attribute, JUDGE_PROVIDER } from '../../lib/grader/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { payloadOf, requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';
import { checkAgainstExpected, within } from '../support/trajectory-trials.ts';

const JUDGE = 'conformance-eval-judge';
const JUDGE_MODEL = 'judge-1';

type Completed = ReturnType<typeof requireCompleted>;
type Usage = { inputTokens?: unknown; outputTokens?: unknown; costUsd?: unknown };

/** Each rubric task's scripted judge calls, by task id (CONTRACT §3: `input.judge.usage`). */
function judgeScript(run: Completed): Map<string, Usage[]> {
  const out = new Map<string, Usage[]>();
  for (const task of run.fixture.suite.tasks as Array<{ taskId: string; input?: { judge?: { usage?: Usage[] } } }>) {
    out.set(task.taskId, task.input?.judge?.usage ?? []);
  }
  return out;
}

/**
 * The judge's usage events are where CONTRACT §3 puts them: each after its trial's agent.decided
 * and before its eval.scored, inside the trial's bracket or after it, with the tokens and cost the
 * script names. Which trial a call is read for is the grader's attribution (lib/grader/attribution.ts):
 * the bracket it stands in or follows, so a host that scores a batch of trials after all their
 * brackets (CONTRACT §6 "Trial attribution") has each task's judge calls read as that task's.
 */
function checkJudgeMarked(check: Checks, run: Completed): void {
  const script = judgeScript(run);
  const attributed = attribute(run.events, []);
  if (attributed.judgeAheadOfScores > 0)
    check.saw(
      `${attributed.judgeAheadOfScores} scripted judge call(s) read as the trial whose bracket they stand in or follow, an earlier trial's eval.scored still to come (CONTRACT §3, §6 Trial attribution)`,
    );
  for (const trial of attributed.scored) {
    const marked = trial.judgeUsage;
    const want = script.get(trial.taskId) ?? [];
    const differs =
      marked.length !== want.length ||
      marked.some(
        (m, i) =>
          m.model !== JUDGE_MODEL ||
          m.inputTokens !== want[i]!.inputTokens ||
          m.outputTokens !== want[i]!.outputTokens ||
          !within(m.costEstimateUsd, Number(want[i]!.costUsd)),
      );
    check.ok(
      !differs,
      `task ${trial.taskId} trial ${trial.trialIndex}: the scripted judge's provider.usage events are its script's (provider "${JUDGE_PROVIDER}", model "${JUDGE_MODEL}", its tokens and cost)`,
      { served: marked, script: want },
    );
  }
  // Where each call stands: after an agent.decided of the trial whose bracket it stands in or
  // follows (the flag resets when a top-level bracket opens and at every eval.scored), and never
  // after the last eval.scored.
  const events = [...run.events].sort((a, b) => a.sequence - b.sequence);
  let depth = 0;
  let decidedSince = false;
  let misplaced = 0;
  let seen = 0;
  let afterLast = 0;
  for (const event of events) {
    const p = payloadOf(event);
    if (event.type === 'agent.invocation-started' && depth++ === 0) decidedSince = false;
    if (event.type === 'agent.invocation-completed') depth = Math.max(0, depth - 1);
    if (event.type === 'agent.decided') decidedSince = true;
    if (event.type === 'provider.usage' && p.provider === JUDGE_PROVIDER) {
      seen++;
      afterLast++;
      if (!decidedSince) misplaced++;
    }
    if (event.type === 'eval.scored') {
      afterLast = 0;
      decidedSince = false;
    }
  }
  check.ok(seen > 0, 'the log carries the scripted judge calls the rubric tasks name', seen);
  check.equal(misplaced, 0, "every judge call comes after its trial's agent.decided, before its eval.scored");
  check.equal(afterLast, 0, 'no judge call follows the last eval.scored');
}

function judgeRun(target: Target) {
  return sharedEvalRun(target, JUDGE);
}

const legs: Leg[] = [
  {
    id: 'openwop.requirement.0081.judge-cost-attributed',
    title: "a judge's model calls, known by what their provider.usage carries, are in totalCostUsd and in no efficiency member",
    clause: 'RFC 0081 UQ 5; RFC 0244 §C',
    rules: {
      'judge-marked': 'CONTRACT §3 (the scripted judge: one provider.usage per scripted call, provider "scripted-judge")',
      'total-includes-judge': "RFC 0081 UQ 5 (resolved: the judge's cost is included in totalCostUsd), §C (totalCostUsd summed from provider.usage)",
      'efficiency-excludes-judge': 'RFC 0244 §C ("Judge calls (RFC 0081 UQ 5) are excluded")',
    },
    needs: { facet: ['trajectory'], modes: ['rubric'], fixtures: [JUDGE] },
    async run(check, target) {
      const run = requireCompleted(check, await judgeRun(target));
      check.rule('judge-marked');
      checkJudgeMarked(check, run);

      check.rule('total-includes-judge');
      const judge = run.grade.judgeCostUsd ?? 0;
      const scripted = [...judgeScript(run).values()].flat().reduce((sum, u) => sum + Number(u.costUsd ?? 0), 0);
      check.close(judge, scripted, `the judge's cost the events show, known by its provider wherever it stands, is the scripted judge calls' ($${scripted})`);
      check.close(
        run.grade.totalCostUsd,
        (run.fixture.expectedGrade as { totalCostUsd: number }).totalCostUsd,
        "the reference total, the judge's cost included, is the contract's",
      );
      check.close(run.summary.totalCostUsd, run.grade.totalCostUsd, `summary.totalCostUsd is every provider.usage cost, the judge's $${judge} included`);

      check.rule('efficiency-excludes-judge');
      checkAgainstExpected(check, run, ['efficiency']);
      const served = run.grade.tasks.map((task) => summaryTask(run.summary, task.taskId)?.efficiency);
      // RFC 0244 §C: efficiency is optional; a host serving none has nothing to count the judge into.
      if (served.every((e) => e === undefined)) return check.saw('no efficiency served on the summary tasks (RFC 0244 §C)');
      for (const [i, task] of run.grade.tasks.entries()) {
        const eff = isJsonObject(served[i]) ? served[i] : {};
        for (const key of ['modelCallCount', 'inputTokens', 'outputTokens'] as const)
          check.close(eff[key], task.efficiency[key], `task ${task.taskId}: efficiency.${key} counts the agent's model calls, never the judge's`);
      }
    },
  },
];

export default defineScenario('v2-eval-run-surface/0081-uq5-judge-cost.ts', legs);
