/**
 * The expected grades of the eval-suite fixture corpus (`fixtures/eval-suites/*.json`): for each
 * fixture, the event log an honest host writes (CONTRACT §3), hand written in
 * test/support/honest-logs-*.ts with test/support/event-log.ts, is checked against the script,
 * then graded by the reference grader; `toSummaryView(gradeRun(suite, log))` must equal
 * `expectedGrade` within 1e-9 · max(1, |x|). `expectedOutcomes` and `expectedRegression` are
 * checked against the same logs and grades.
 */
import { JUDGE_LOGS } from './support/honest-logs-judge.ts';
import { describe, expect, it } from 'vitest';
import { gradeRun, signTestVerdict, toSummaryView } from '../lib/grader/index.ts';
import { validateRunEvent } from '../lib/schemas/index.ts';
import type { LogEvent } from './support/event-log.ts';
import { differences, fixture, fixtures, loggedTrials, scriptedCalls, scriptFor, trialCount } from './support/fixture-corpus.ts';
import { FIXTURE_MATCHING_LOGS } from './support/honest-logs-fixture-matching.ts';
import { GRADING_LOGS } from './support/honest-logs-grading.ts';

/** The honest log of every fixture, by fixture id. */
const honestLogs: Record<string, () => LogEvent[]> = { ...GRADING_LOGS, ...FIXTURE_MATCHING_LOGS, ...JUDGE_LOGS };

/**
 * A replay whose grade needs its source's log (RFC 0252 §D): a call served a recorded never-run
 * call's error carries the miss code, and only the derived entries tell it from a miss.
 */
const REPLAY_SOURCES: Record<string, { source: string; tasks: string[] }> = {
  'conformance-eval-recorded-errors-replay': { source: 'conformance-eval-recorded-errors-source', tasks: ['errors'] },
};

function gradeOf(id: string, events: LogEvent[], suite: Parameters<typeof gradeRun>[0]) {
  const replay = REPLAY_SOURCES[id];
  if (replay === undefined) return gradeRun(suite, events);
  const source = honestLogs[replay.source]!();
  return gradeRun(suite, events, { fixtureRunSources: Object.fromEntries(replay.tasks.map((task) => [task, source])) });
}

describe('eval-suite fixture corpus: expected grades', () => {
  it('every fixture has a hand-written honest log', () => {
    expect(Object.keys(honestLogs).sort()).toEqual(fixtures.map((f) => f.doc.id).sort());
  });

  for (const { file, doc } of fixtures) {
    const build = honestLogs[doc.id];
    if (!build) continue;

    describe(file, () => {
      it('its honest log is well-formed v2 events with sequences 0, 1, 2, …', () => {
        const events = build();
        events.forEach((e, i) => {
          expect(e.sequence).toBe(i);
          expect(validateRunEvent(e), `event ${i} (${e.type})`).toEqual({ ok: true });
        });
        expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
      });

      it('its honest log runs each task trials.count times, in suite order, exactly as scripted', () => {
        const trials = loggedTrials(build());
        const expectedOrder = doc.suite.tasks.flatMap((t) => Array.from({ length: trialCount(doc.suite) }, (_, i) => `${t.taskId}#${i}`));
        expect(trials.map((t) => `${t.taskId}#${t.trialIndex}`)).toEqual(expectedOrder);
        for (const trial of trials) {
          const task = doc.suite.tasks.find((t) => t.taskId === trial.taskId)!;
          const script = scriptFor(task.input, trial.trialIndex);
          const where = `${trial.taskId} trial ${trial.trialIndex}`;
          expect(
            trial.calls.map(({ agentId, tool, inputs }) => ({ agentId, tool, inputs })),
            where,
          ).toEqual(scriptedCalls(task, trial.trialIndex, doc.suite.targetAgentId));
          expect(trial.usage, where).toEqual(script.usage);
          expect(trial.decision, where).toEqual(script.output);
        }
      });

      if (doc.expectedOutcomes) {
        it('every trial of its honest log sees expectedOutcomes', () => {
          const trials = loggedTrials(build());
          for (const [taskId, outcomes] of Object.entries(doc.expectedOutcomes ?? {})) {
            const ofTask = trials.filter((t) => t.taskId === taskId);
            expect(ofTask.length, `task ${taskId}`).toBe(trialCount(doc.suite));
            for (const t of ofTask)
              expect(
                t.calls.map((c) => c.outcome),
                `${taskId} trial ${t.trialIndex}`,
              ).toEqual(outcomes);
          }
        });
      }

      it('the reference grade of its honest log equals expectedGrade', () => {
        const view = toSummaryView(gradeOf(doc.id, build(), doc.suite));
        const diffs = differences(view, doc.expectedGrade);
        expect(diffs, `${doc.id}: reference grade vs expectedGrade`).toEqual([]);
      });

      it('its honest log grades without anomalies', () => {
        expect(gradeOf(doc.id, build(), doc.suite).anomalies).toEqual([]);
      });
    });
  }

  it('the regression candidate pairs with its baseline by taskId: unchanged, three pairs, delta 1/12', () => {
    const candidates = fixtures.filter((f) => f.doc.expectedRegression !== undefined);
    expect(candidates.length).toBeGreaterThan(0);
    for (const { doc } of candidates) {
      const expected = doc.expectedRegression!;
      const baseline = fixture(expected.baselineFixtureId);
      const base = gradeRun(baseline.suite, honestLogs[baseline.id]!());
      const cand = gradeRun(doc.suite, honestLogs[doc.id]!());
      const verdict = signTestVerdict(base.tasks, cand.tasks);
      expect(verdict.verdict).toBe(expected.verdict);
      expect(verdict.pairedTaskCount).toBe(expected.pairedTaskCount);
      expect(differences(cand.aggregateScore - base.aggregateScore, expected.scoreDelta)).toEqual([]);
    }
  });

  it('pairing the regression pair by position instead would not be unchanged', () => {
    const doc = fixture('conformance-eval-regression-candidate');
    const baseline = fixture(doc.expectedRegression!.baselineFixtureId);
    const base = baseline.expectedGrade.tasks;
    const cand = doc.expectedGrade.tasks.slice(0, base.length);
    const byPosition = signTestVerdict(
      base.map((t, i) => ({ taskId: `#${i}`, score: t.score })),
      cand.map((t, i) => ({ taskId: `#${i}`, score: t.score })),
    );
    expect(byPosition.verdict).not.toBe('unchanged');
  });
});
