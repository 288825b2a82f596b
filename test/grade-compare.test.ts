// The member-by-member comparison of `grade --base-url` (commands/support/grade-compare.ts),
// on a grade of the trials fixture and its own summary view with one member changed at a time.

import { describe, expect, it } from 'vitest';
import { compareSummary } from '../commands/support/grade-compare.ts';
import { fixture } from '../lib/fixtures.ts';
import { toSummaryView, type RunGrade, type SummaryView } from '../lib/grader/index.ts';

// The fixture's expected grade is the summary view of its grade; the per-trial grades it leaves
// out only carry judge costs, and this log has none.
const view = fixture('conformance-eval-trials').expectedGrade as unknown as SummaryView;
const grade: RunGrade = {
  ...view,
  gatingAggregateScore: view.aggregateScore,
  anomalies: [],
  tasks: view.tasks.map((t) => ({ ...t, gatingScore: t.score, trialGrades: [] })),
};

/** The grade's own summary view, as JSON, changed by `change`. */
function served(change: (summary: Record<string, any>) => void = () => {}): Record<string, unknown> {
  const summary = JSON.parse(JSON.stringify(toSummaryView(grade)));
  change(summary);
  return summary;
}

const differing = (g: RunGrade, summary: Record<string, unknown>) =>
  compareSummary(g, summary)
    .filter((m) => m.outcome === 'different')
    .map((m) => m.member);

describe('compareSummary', () => {
  it('finds nothing different in the summary view of the grade itself, and compares every member of it', () => {
    const members = compareSummary(grade, served());
    expect(members.filter((m) => m.outcome !== 'equal')).toEqual([]);
    expect(members.map((m) => m.member)).toEqual(
      expect.arrayContaining(['aggregateScore', 'passed', 'totalCostUsd', 'trialStats.passHatK', `tasks[${grade.tasks[0]!.taskId}].trials.passAtK`]),
    );
  });

  it('names each member that differs, and takes the task entries in any order', () => {
    const first = grade.tasks[0]!.taskId;
    expect(
      differing(
        grade,
        served((s) => (s.passed = !s.passed)),
      ),
    ).toEqual(['passed']);
    expect(
      differing(
        grade,
        served((s) => (s.aggregateScore += 1e-6)),
      ),
    ).toEqual(['aggregateScore']);
    expect(
      differing(
        grade,
        served((s) => (s.aggregateScore += 1e-12)),
      ),
    ).toEqual([]);
    expect(
      differing(
        grade,
        served((s) => (s.tasks[0].trials.passHatK = 0.5)),
      ),
    ).toEqual([`tasks[${first}].trials.passHatK`]);
    expect(
      differing(
        grade,
        served((s) => s.tasks.reverse()),
      ),
    ).toEqual([]);
  });

  it('a required member missing, a task missing or unknown, a scoreStderr the grade omits: each a difference', () => {
    const first = grade.tasks[0]!.taskId;
    expect(
      differing(
        grade,
        served((s) => delete s.passedCount),
      ),
    ).toEqual(['passedCount']);
    expect(
      differing(
        grade,
        served((s) => s.tasks.shift()),
      ),
    ).toEqual([`tasks[${first}]`]);
    expect(
      differing(
        grade,
        served((s) => s.tasks.push({ taskId: 'invented', score: 1, passed: true })),
      ),
    ).toEqual(['tasks[invented]']);
    const oneTask: RunGrade = { ...grade, trialStats: { ...grade.trialStats!, scoreStderr: undefined } };
    delete oneTask.trialStats!.scoreStderr;
    expect(differing(oneTask, served())).toEqual(['trialStats.scoreStderr']);
  });

  it('an optional member not served is listed as not served, and is no difference', () => {
    const members = compareSummary(
      grade,
      served((s) => {
        delete s.totalCostUsd;
        delete s.tasks[0].efficiency;
      }),
    );
    expect(members.find((m) => m.member === 'totalCostUsd')).toMatchObject({ outcome: 'not served', served: undefined });
    expect(members.filter((m) => m.outcome === 'not served')).toHaveLength(5);
    expect(members.filter((m) => m.outcome === 'different')).toEqual([]);
  });

  it("totalCostUsd agrees only with the judge's cost in it (RFC 0081 UQ 5, resolved: included)", () => {
    const judged: RunGrade = { ...grade, totalCostUsd: grade.totalCostUsd + 0.002, judgeCostUsd: 0.002 };
    expect(
      differing(
        judged,
        served((s) => (s.totalCostUsd += 0.002)),
      ),
    ).toEqual([]);
    expect(differing(judged, served())).toEqual(['totalCostUsd']);
    expect(
      differing(
        judged,
        served((s) => (s.totalCostUsd += 0.001)),
      ),
    ).toEqual(['totalCostUsd']);
  });

  it("holds passed to false over the host's advertised maxCostUsdPerSuite, which the grade cannot know (CONTRACT §6)", () => {
    // A suite passing on its own tasks, run on a host whose ceiling is below its cost: the host
    // must not pass it (a false `passed` is the host enforcing its ceiling, no difference), and a
    // passing suite over the ceiling is one. Without the ceiling the grade's own verdict stands.
    const passing: RunGrade = { ...grade, passed: true };
    const under = grade.totalCostUsd - 0.0001;
    const failedByHost = served((s) => (s.passed = false));
    const passedByHost = served((s) => (s.passed = true));
    expect(differing(passing, failedByHost)).toEqual(['passed']);
    expect(compareSummary(passing, failedByHost, under).filter((m) => m.outcome === 'different')).toEqual([]);
    expect(compareSummary(passing, failedByHost, under).find((m) => m.member === 'passed')).toMatchObject({ outcome: 'equal', recomputed: false });
    expect(
      compareSummary(passing, passedByHost, under)
        .filter((m) => m.outcome === 'different')
        .map((m) => m.member),
    ).toEqual(['passed']);
    // At or above the cost, the ceiling holds nothing back (RFC 0081 §D: a ceiling, not a bound below).
    expect(compareSummary(passing, passedByHost, grade.totalCostUsd).filter((m) => m.outcome === 'different')).toEqual([]);
    expect(
      compareSummary(passing, failedByHost, grade.totalCostUsd)
        .filter((m) => m.outcome === 'different')
        .map((m) => m.member),
    ).toEqual(['passed']);
  });
});
