// v2-eval-recorded-fixtures/0252-e-fork — RFC 0252 §E and Security, RFC 0244 §H: a fork of an eval
// run re-reads its recorded facts, and a fork whose derived copy is gone is never derived again.
//
// Legs:
//   1. openwop.requirement.0252.fork-re-reads   three rules, in order, on a source of the leg's own:
//        source-fork   a fork of the source (an eval run whose trial called the live counter) moves
//                      no counter and carries the source's eval.* facts and summary: no trial re-run
//                      (RFC 0244 §H);
//        replay-fork   a fork of an eval run with fixtureRuns carries its eval.* facts and summary,
//                      moving no counter (RFC 0252 §E: the recorded events re-read);
//        copy-gone     once the source's tool content is erased (CONTRACT §5), a fork of that eval
//                      run is refused (any 4xx: no code is fixed; or accepted and its run failed)
//                      or, where the host keeps the copy (a SHOULD, noted as latitude), serves the
//                      recorded facts; never run live.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs agents.evalSuite.recordedFixtures with fixtureMatching (§A), the seams, and the replay
// family (docs/wire.md §5.5): a host offering no fork is inapplicable here.
// Compared: the eval.* events (type and payload, in order) and the summary. The agent.* events are
// not: a v2 replay may re-execute an LLM call from its invocation log (replay.md §Suppression).

import { eraseToolContent, projectId, readCounter, readRunEffects, readRunEvents, waitForSummary, type HttpResult } from '../../lib/client/index.ts';
import { fixture } from '../../lib/fixtures.ts';
import { gradeRun, type EvalSuite } from '../../lib/grader/index.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { TestBug, type Checks } from '../../lib/ledger/leg.ts';
import type { ObservedRun } from '../../lib/ledger/observed-run.ts';
import { inOrder } from '../../lib/ledger/in-order.ts';
import { defineScenario, type Leg } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { observeLiveEffects, seamAnswerWrong } from '../support/effects.ts';
import { RECORDED } from '../support/recorded.ts';
import { counterKey, noLiveCounterCall } from '../support/counters.ts';
import { endedCompleted, observeEvalRun, observeEvalRunStaged, requireCompleted, SUMMARY_WAIT_MS } from '../support/eval-run.ts';

const SOURCE = 'conformance-eval-recorded-source';
/** What scenarios/support/effects.ts says of a wrong answer from the per-run effects seam. */
const RUN_EFFECTS_ANSWER = 'GET /conformance/seams/runs/{runId}/effects answers 200 {runId, effects: {<toolName>: <integer ≥0>}}';
const REPLAY = 'conformance-eval-recorded-replay';

type ForkRun = ObservedRun & { effectsRead?: Awaited<ReturnType<typeof readRunEffects>> };

/**
 * `POST /runs/{runId}:fork` with `{mode: "replay"}`, read as an eval run: its answer, log and
 * summary; with `effects`, its live effects are read beside the summary once its log has ended,
 * which `onLogEnded` is told first.
 */
async function forkRun(target: Target, source: ObservedRun, effects = false, onLogEnded?: (fork: ObservedRun) => void): Promise<ForkRun> {
  const created = await target.client.request('POST', `/runs/${projectId(source.runId!)}:fork`, { body: { mode: 'replay' } });
  const runId = created.status === 201 && isJsonObject(created.json) && typeof created.json.runId === 'string' ? created.json.runId : undefined;
  const observed: ObservedRun = { fixture: source.fixture, agentId: source.agentId, request: source.request, created, runId, events: [] };
  if (runId === undefined) {
    onLogEnded?.(observed);
    return observed;
  }
  const read = await readRunEvents(target.client, runId);
  observed.events = read.events;
  if (!read.ok) observed.eventsProblem = read.reason;
  else if (!read.terminal) observed.eventsProblem = 'the event log ended without a terminal event';
  onLogEnded?.(observed);
  const [answer, effectsRead] = await Promise.all([
    waitForSummary(target.client, runId, SUMMARY_WAIT_MS),
    effects ? readRunEffects(target.client, runId) : undefined,
  ]);
  observed.summaryAnswer = answer.result;
  if (answer.kind === 'ok') observed.summary = answer.summary;
  observed.grade = gradeRun(source.fixture.suite as EvalSuite, read.events);
  return effectsRead === undefined ? observed : { ...observed, effectsRead };
}

/** The recorded trial facts of a log: its eval.* events, type and payload, in order (RFC 0244 §H). */
const evalFacts = (run: ObservedRun) => run.events.filter((event) => event.type.startsWith('eval.')).map((event) => [event.type, event.payload]);

/** The fork re-read the source: it is a new run, naming its source, with the source's eval.* facts and summary. */
function checkReRead(check: Checks, source: ObservedRun, fork: ObservedRun, what: string): void {
  const answer = fork.created.json as Record<string, unknown>;
  check.ok(fork.runId !== source.runId, `the fork of ${what} is a new run`, fork.runId);
  check.equal(answer.sourceRunId, source.runId, `the fork of ${what} names it as sourceRunId`);
  // The harness asks for {mode: "replay"} with no fromSeq, which replay reads as 0 (docs/wire.md §5.5).
  check.equal(answer.mode, 'replay', `the fork of ${what} answers the mode it was asked for`);
  if ('fromSeq' in answer) check.equal(answer.fromSeq, 0, `the fork of ${what} answers the fork point it was asked for: fromSeq 0, replay's default`);
  check.equal(
    evalFacts(fork),
    evalFacts(source),
    `the fork of ${what} carries its eval.* events, payload for payload, in order: no trial re-run, nothing re-judged`,
  );
  check.equal(fork.summary, source.summary, `the fork of ${what} has its summary, field for field`);
}

/** A fork refused (the SHOULD: any 4xx, since no status or code is fixed). */
function refused(answer: HttpResult): boolean {
  return answer.status >= 400 && answer.status < 500;
}

type EraseAnswers = [Awaited<ReturnType<typeof eraseToolContent>>, Awaited<ReturnType<typeof readCounter>>];

/**
 * Where effects are read per run nothing global is read between two requests, so each goes out as
 * soon as what it needs has ended: the replay once the source's log has ended (RFC 0252 §C: a
 * source must have ended), beside the source's summary and its other reads; the replay's fork
 * once the replay's log has ended; the erase, and the counter reading before the late fork, once
 * everything read of the source and its derived copies has ended (the source, its fork, the
 * replay, the replay fork's log) but the replay fork's summary and effects, which go beside them:
 * the summary is the ended run's output (RFC 0081 §B), content-free (§C), and the effects count
 * the live calls the ended run made, so erasing tool content reaches neither. Judged in the leg's
 * own order (lib/ledger/in-order.ts): the source, its fork, then the replay and its fork. Returns
 * the replay, the source's id and `erased`, the erase's and the counter's answers (undefined when
 * the replay fork did not end completed, which its judgement has stopped the leg for).
 */
async function forksSentEarly(
  check: Checks,
  target: Target,
  key: string,
  sourceForked: (part: Checks, source: ObservedRun) => Promise<void>,
  replayForked: (part: Checks, observing: Promise<ObservedRun>, forkStarted: Promise<ForkRun | undefined>) => Promise<ObservedRun>,
): Promise<{ replay: ObservedRun; sourceRunId: string; erased: Promise<EraseAnswers | undefined> }> {
  const source = observeEvalRunStaged(target, SOURCE);
  let sourceJudged: (passed: boolean) => void = () => {};
  const sourcePassed = new Promise<boolean>((resolve) => (sourceJudged = resolve));
  let sourceForkDone: () => void = () => {};
  const sourceForkSettled = new Promise<void>((resolve) => (sourceForkDone = resolve));
  let forkLogEnded: (fork: ObservedRun | undefined) => void = () => {};
  const replayForkEnded = new Promise<ObservedRun | undefined>((resolve) => (forkLogEnded = resolve));
  const replayStaged = source.logEnded.then((ended) =>
    endedCompleted(ended) ? observeEvalRunStaged(target, REPLAY, { fixtureRuns: { record: ended.runId } }) : undefined,
  );
  const replayFork = replayStaged.then(async (staged) => {
    const ended = await staged?.logEnded;
    return endedCompleted(ended) ? forkRun(target, ended, true, forkLogEnded) : undefined;
  });
  const erased = Promise.all([
    source.logEnded,
    sourceForkSettled,
    replayStaged.then((staged) => staged?.observed).catch(() => undefined),
    replayForkEnded,
  ]).then(([ended, , , fork]): Promise<EraseAnswers> | undefined =>
    endedCompleted(ended) && endedCompleted(fork) ? Promise.all([eraseToolContent(target.client, ended.runId), readCounter(target.client, key)]) : undefined,
  );
  // Each is awaited below or by the caller; a loss before then must not go unhandled.
  for (const pending of [replayFork, erased]) pending.catch(() => undefined);
  const parts = [
    async (part: Checks) => {
      try {
        const judged = requireCompleted(part, await source.observed);
        sourceJudged(true);
        return judged;
      } catch (error) {
        sourceJudged(false);
        throw error;
      }
    },
    async (part: Checks) => {
      try {
        if (await sourcePassed) await sourceForked(part, await source.observed);
      } finally {
        sourceForkDone();
      }
    },
    async (part: Checks) => {
      try {
        const staged = await replayStaged;
        if (!(await sourcePassed) || staged === undefined) {
          // Never judged: the source stopped the leg. Sent, so awaited.
          await Promise.allSettled([staged?.observed, replayFork]);
          return undefined;
        }
        return await replayForked(part, staged.observed, replayFork);
      } finally {
        forkLogEnded(undefined);
      }
    },
  ] as const;
  try {
    const [judgedSource, , replay] = await inOrder(check, parts);
    if (replay === undefined) throw new TestBug('the replay was judged, and never observed');
    return { replay, sourceRunId: judgedSource.runId, erased };
  } catch (error) {
    await erased.catch(() => undefined);
    throw error;
  }
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0252.fork-re-reads',
    title: 'a fork of an eval run re-reads its recorded facts, never re-runs a trial, and never derives a gone copy again',
    clause: 'RFC 0252 §E, Security; RFC 0244 §H; docs/wire.md §5.5',
    needs: { facet: RECORDED, fixtures: [SOURCE, REPLAY], seams: true, replay: true },
    observes: ['counters', 'effects'],
    rules: {
      'source-fork': 'RFC 0244 §H (a fork re-reads the trial facts and never re-runs a trial), RFC 0081 UQ 1',
      'replay-fork': 'RFC 0252 §E (a fork of the eval run re-reads its recorded events, never resolving the source again)',
      'copy-gone': 'RFC 0252 Security (a fork whose copy is gone SHOULD be refused, never derived again, never run live)',
    },
    chain: 9,
    async run(check, target) {
      const sourceKey = counterKey(target, SOURCE);
      const key = counterKey(target, REPLAY);
      const perRun = target.runEffects === true;
      // A fork and its live effects, judged as observeLiveEffects judges them; where effects are
      // read per run, they are read beside the fork's summary (`started`: a fork already sent).
      const forkJudged = async (part: Checks, of: ObservedRun, counterKey: string, started?: Promise<ForkRun | undefined>) => {
        if (!perRun) return observeLiveEffects(part, target, { own: () => forkRun(target, of), counterKeys: [counterKey] });
        const fork = started === undefined ? await forkRun(target, of, true) : await started;
        if (fork === undefined) throw new TestBug('the fork of a completed run was never sent');
        const run = requireCompleted(part, fork);
        if (fork.effectsRead?.ok !== true) return seamAnswerWrong(part, RUN_EFFECTS_ANSWER, fork.effectsRead!);
        return { run, effects: fork.effectsRead.effects, counters: undefined };
      };
      const sourceForked = async (part: Checks, source: ObservedRun): Promise<void> => {
        part.rule('source-fork');
        const sourceFork = await forkJudged(part, source, sourceKey);
        checkReRead(part, source, sourceFork.run, 'the source eval run');
        noLiveCounterCall(part, sourceKey, sourceFork.effects, sourceFork.counters);
      };
      const replayForked = async (part: Checks, observing: Promise<ObservedRun>, forkStarted?: Promise<ForkRun | undefined>): Promise<ObservedRun> => {
        part.rule('replay-fork');
        const replay = requireCompleted(part, await observing);
        const replayFork = await forkJudged(part, replay, key, forkStarted);
        checkReRead(part, replay, replayFork.run, 'the eval run with fixtureRuns');
        noLiveCounterCall(part, key, replayFork.effects, replayFork.counters);
        return replay;
      };
      // A source of the leg's own: it is erased below.
      let replay: ObservedRun;
      let sourceRunId: string;
      let erasedFirst: Promise<EraseAnswers | undefined> | undefined;
      if (perRun) ({ replay, sourceRunId, erased: erasedFirst } = await forksSentEarly(check, target, key, sourceForked, replayForked));
      else {
        // With only the first seams each fork is read between two global readings, one after the other.
        const source = requireCompleted(check, await observeEvalRun(target, SOURCE));
        sourceRunId = source.runId;
        await sourceForked(check, source);
        replay = await replayForked(check, observeEvalRun(target, REPLAY, { fixtureRuns: { record: source.runId } }));
      }
      check.rule('copy-gone');
      // Read around the fork: no live call may move the counter, whether it is refused or served.
      // Where effects are read per run no other run's call can move it between the erase and this
      // reading, so the two go together.
      const erasedAnswers = erasedFirst === undefined ? undefined : await erasedFirst;
      if (perRun && erasedAnswers === undefined) throw new TestBug('the forks were judged, and the erase that waited on them was never sent');
      const [erased, readFirst] = erasedAnswers ?? [await eraseToolContent(target.client, sourceRunId), undefined];
      if (!erased.ok) return seamAnswerWrong(check, 'POST /conformance/seams/runs/{runId}/erase-tool-content answers 204', erased);
      const before = readFirst ?? (await readCounter(target.client, key));
      if (!before.ok) return seamAnswerWrong(check, 'GET /conformance/seams/counter?key=K answers 200 {key, count}', before);
      const late = await forkRun(target, replay);
      // Where effects are read per run the counter and the fork's effects are read together once
      // it has ended, and judged below in the same order.
      const [afterFirst, lateEffects] = perRun
        ? await Promise.all([readCounter(target.client, key), late.runId === undefined ? undefined : readRunEffects(target.client, late.runId)])
        : [undefined, undefined];
      if (refused(late.created)) check.saw(`a fork of an eval run whose derived copy is gone is refused ${late.created.status}`);
      else if (late.created.status === 201 && late.events.at(-1)?.type === 'run.failed') {
        // Refused at run level: accepted, then failed with nothing served (the text fixes no form of the refusal).
        check.saw('a fork of an eval run whose derived copy is gone is accepted, then its run fails');
      } else {
        check.saw('a fork of an eval run whose source was erased is served: the host keeps the derived copy (RFC 0252 Security is a SHOULD)');
        requireCompleted(check, late);
        check.equal(evalFacts(late), evalFacts(replay), 'the served fork carries the recorded eval.* facts, not ones derived again from the erased source');
      }
      const after = afterFirst ?? (await readCounter(target.client, key));
      if (!after.ok) return seamAnswerWrong(check, 'GET /conformance/seams/counter?key=K answers 200 {key, count}', after);
      // On a host reading effects per run other legs run beside this one; the served fork's own effects say it all there.
      if (late.runId !== undefined && target.runEffects === true) {
        const effects = lateEffects ?? (await readRunEffects(target.client, late.runId));
        if (!effects.ok) return seamAnswerWrong(check, 'GET /conformance/seams/runs/{runId}/effects answers 200 {runId, effects}', effects);
        noLiveCounterCall(check, key, effects.effects, undefined);
      } else if (target.runEffects !== true) noLiveCounterCall(check, key, {}, new Map([[key, after.count - before.count]]));
      else check.saw('the refused fork created no run, so nothing of it ran');
    },
  },
];

// The fixture documents this leg reads must exist (a typo fails at load, not at run).
for (const id of [SOURCE, REPLAY]) fixture(id);

export default defineScenario('v2-eval-recorded-fixtures/0252-e-fork.ts', hostLegs);
