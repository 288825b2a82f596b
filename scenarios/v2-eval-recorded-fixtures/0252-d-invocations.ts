// v2-eval-recorded-fixtures/0252-d-invocations — RFC 0252 §D, UQ 1–3: what a source of several invocations derives.
//
// Legs:
//   1. openwop.requirement.0252.every-invocation-derived  the entries come from every invocation of the eval's agent
//                                   in the source, in sequence order (UQ 1): a replay calling the
//                                   second invocation's calls is served them, and two identical
//                                   calls from two invocations get their answers in source order;
//                                   a call a fixture entry answered in the source is derived like a
//                                   live one (UQ 4): the replay's echo of null is served its answer
//   2. openwop.requirement.0252.derived-args-exact   a derived entry matches its call exactly (§D, UQ 2): a call
//                                   carrying one argument more than the recorded one misses and
//                                   fails closed
//   3. openwop.requirement.0252.memory-not-seeded    a named task's memory is its own, never the source's (UQ 3):
//                                   the replay reads null where the source's memory held a value
//   4. openwop.requirement.0252.derived-entries-unserved  a derived entry no call consumed appears in nothing the
//                                   replay serves: its events in every form read, its summary, its
//                                   snapshot, its create answer (§D "never put on the wire")
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A), and the two
// conformance-eval-recorded-invocations-* fixtures. One replay run serves every leg.

import { jsonDeepEqual } from '../../lib/json-value.ts';
import { need } from '../../lib/ledger/leg.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { OUTCOME_UNSERVED, trialAnswers } from '../support/answers.ts';
import { isCompleted, observeEvalRun, payloadOf, requireCompleted, sharedEvalRun, summaryTask, type ObservedRun } from '../support/eval-run.ts';
import { RECORDED } from '../support/recorded.ts';

/** Two invocations (tasks first, second) of the scripted agent, every call live. */
const SOURCE = 'conformance-eval-recorded-invocations-source';
/** Tasks replay, memory and superset, each named in fixtureRuns with one source run. */
const REPLAY = 'conformance-eval-recorded-invocations-replay';
/** What the source's first invocation echoed and no replay call asks for. */
const UNCONSUMED = 'recorded-only-answer';
/** What the source's fixture entry answered its echo of null with: no live echo answers it. */
const FIXTURE_SERVED = { value: 'served-by-fixture' };
/** What the source's memory held (its seed), which a replay's memory must not. */
const SOURCE_MEMORY = 'source-memory';
const NEEDS = { facet: RECORDED, fixtures: [SOURCE, REPLAY] };

interface Pair {
  source: ObservedRun;
  replay: ObservedRun | undefined;
}

/** The source run and, once it completed, its replay with both tasks named: shared by every leg. */
function replayOfSource(target: Target): Promise<Pair> {
  return target.memo('recorded-invocations-replay', async (shared) => {
    const source = await sharedEvalRun(shared, SOURCE);
    if (!isCompleted(source)) return { source, replay: undefined };
    const fixtureRuns = { replay: source.runId, memory: source.runId, superset: source.runId };
    const replay = await observeEvalRun(shared, REPLAY, { fixtureRuns }, shared.client, {
      fixtureRunSources: { replay: source.events, memory: source.events, superset: source.events },
    });
    return { source, replay };
  });
}

/** Both runs completed, or the leg stops (requireCompleted) with what went wrong. */
async function completedPair(check: Parameters<Leg['run']>[0], target: Target) {
  const pair = await replayOfSource(target);
  const source = requireCompleted(check, pair.source);
  const replay = requireCompleted(check, pair.replay!);
  return { source, replay };
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.every-invocation-derived',
    title: "the entries derived from a source are every call of every invocation of the eval's agent, in sequence order",
    clause: 'RFC 0252 §D, UQ 1',
    rules: {
      main: 'RFC 0252 UQ 1 ("every call of every invocation of the eval\'s agentId")',
      'sequence-order': 'RFC 0252 §D, UQ 1 ("in event-sequence order")',
      'fixture-served-derived': 'RFC 0252 UQ 4 ("the derivation reads what the agent saw, live or fixture-served")',
    },
    needs: NEEDS,
    chain: 6,
    async run(check, target) {
      const { source, replay } = await completedPair(check, target);
      const task = summaryTask(replay.summary, 'replay');
      // The replay's second inc and its read exist only in the source's second invocation.
      check.equal(task?.fixtureMissCount, 0, "the replay task misses none of its calls: the second invocation's calls are derived too");
      check.equal(task?.passed, true, 'the replay task passes');
      // The source's echo of null was answered ok by its task's fixture entry, not by the live echo:
      // its entry is derived all the same, so the memory task's echo of null is served it, no miss.
      check.rule('fixture-served-derived');
      const memoryTask = summaryTask(replay.summary, 'memory');
      check.equal(memoryTask?.fixtureMissCount, 0, "the memory task's echo of null misses nothing: the call the source's fixture answered is derived");
      check.equal(memoryTask?.passed, true, 'the memory task passes');
      const [sourceSecond, replayedMemory] = [trialAnswers(source.events, 'second'), trialAnswers(replay.events, 'memory')];
      if (sourceSecond.known && replayedMemory.known) {
        check.equal(sourceSecond.byTrial.get(0)?.[2], FIXTURE_SERVED, "the source's echo of null was answered by its fixture entry");
        check.equal(replayedMemory.byTrial.get(0)?.[0], FIXTURE_SERVED, "the replay's echo of null is served the source's fixture-served answer");
      } else check.saw('agent.tool-returned without the optional outcome: the fixture-served answer is read from fixtureMissCount alone');
      check.rule('main');
      const [first, second, replayed] = [trialAnswers(source.events, 'first'), trialAnswers(source.events, 'second'), trialAnswers(replay.events, 'replay')];
      if (!first.known || !second.known || !replayed.known) return check.inapplicable(OUTCOME_UNSERVED);
      const [firstInc] = first.byTrial.get(0) ?? [];
      const [secondInc, secondRead] = second.byTrial.get(0) ?? [];
      const answers = replayed.byTrial.get(0) ?? [];
      check.equal(answers[2], secondRead, "the read is served the source's second invocation's answer");
      check.rule('sequence-order');
      need(check, !jsonDeepEqual(firstInc, secondInc), "the source's two invocations recorded two different answers to the same inc", [firstInc, secondInc]);
      // "In event-sequence order" (RFC 0252 §D, UQ 1) is the order of the source's log: the order
      // its tasks ran in is the host's (RFC 0081 §B, §C, RFC 0244 §B fix none), so the invocation
      // that came first is read from the log, by where each task was scored, not from the task names.
      const scoredAt = (taskId: string) => source.events.findIndex((e) => e.type === 'eval.scored' && payloadOf(e).taskId === taskId);
      const [firstAt, secondAt] = [scoredAt('first'), scoredAt('second')];
      const reordered = firstAt >= 0 && secondAt >= 0 && secondAt < firstAt;
      if (reordered) check.saw("the source ran its tasks in an order other than the suite's: the entries follow its log");
      const inLogOrder = reordered ? [secondInc, firstInc] : [firstInc, secondInc];
      check.equal(
        answers.slice(0, 2),
        inLogOrder,
        "the two identical incs are served the earlier invocation's answer, then the later one's, in the source's log order",
      );
    },
  },
  {
    id: 'openwop.requirement.0252.derived-args-exact',
    title: 'a derived entry matches only a call whose inputs equal the recorded ones: one argument more misses and fails closed',
    clause: 'RFC 0252 §D, UQ 2',
    needs: NEEDS,
    async run(check, target) {
      const { replay } = await completedPair(check, target);
      const task = summaryTask(replay.summary, 'superset');
      check.equal(task?.fixtureMissCount, 1, 'the read with one argument more than the recorded read misses (argsMatch "exact", not "subset")');
      check.equal(task?.passed, false, 'the task fails closed');
      check.equal(task?.score, 0, 'the task scores 0');
      const answers = trialAnswers(replay.events, 'superset');
      if (answers.known) {
        const answer = answers.byTrial.get(0)?.[0] as { error?: unknown } | undefined;
        check.ok(answer?.error !== undefined && answer.error !== null, 'the call is answered with a tool error, not the recorded read', answer);
      } else check.saw('agent.tool-returned without the optional outcome');
    },
  },
  {
    id: 'openwop.requirement.0252.memory-not-seeded',
    title: "a named task's memory is not seeded from the source run: the replay reads null where the source's memory held a value",
    clause: 'RFC 0252 §D (UQ 3)',
    needs: NEEDS,
    async run(check, target) {
      const { replay } = await completedPair(check, target);
      // The replay's echo of {"$memory": "note"}: its inputs show what its memory held, and the
      // entry it is served (the source's echo of null, or of the source's memory) shows it again.
      const echo = replay.events
        .map(payloadOf)
        .find((payload, i) => replay.events[i]!.type === 'agent.tool-called' && payload.toolName === 'conformance.eval:echo');
      need(check, echo !== undefined, 'the replay makes its echo call', replay.events.length);
      const answers = trialAnswers(replay.events, 'memory');
      const inputsServed = 'inputs' in echo;
      if (!inputsServed && !answers.known) return check.inapplicable(`${OUTCOME_UNSERVED}, and agent.tool-called carries no inputs`);
      if (inputsServed) check.equal(echo.inputs, { value: null }, 'the echo reads null from memory: nothing was seeded from the source');
      else {
        // Only the answer shows it: the entry recorded for the echo of the source's memory.
        const answer = answers.byTrial.get(0)?.[0];
        check.ok(!jsonDeepEqual(answer, { value: SOURCE_MEMORY }), "the echo is not served the entry recorded for the source's memory", answer);
      }
    },
  },
  {
    id: 'openwop.requirement.0252.derived-entries-unserved',
    title: 'a derived entry is never put on the wire: what no call consumed appears in nothing the replay serves',
    clause: 'RFC 0252 §D ("never put on the wire")',
    needs: NEEDS,
    async run(check, target) {
      const { replay } = await completedPair(check, target);
      const snapshot = await target.client.request('GET', `/runs/${encodeURIComponent(replay.runId)}`);
      const served: Array<[string, string]> = [
        ['the create answer', replay.created.text],
        ['the event log', JSON.stringify(replay.events)],
        ...(replay.otherForms ?? []).map((form): [string, string] => [`the event log read by ${form.form}`, JSON.stringify(form.events)]),
        ['the eval summary', replay.summaryAnswer?.text ?? ''],
        ['the run snapshot', snapshot.text],
      ];
      for (const [what, text] of served) {
        check.ok(
          !text.includes(UNCONSUMED),
          `${what} does not carry the source's unconsumed entry (${UNCONSUMED})`,
          text.length > 2000 ? `${text.slice(0, 2000)}…` : text,
        );
      }
    },
  },
];

export default defineScenario('v2-eval-recorded-fixtures/0252-d-invocations.ts', hostLegs);
