// Known-bad hosts of the adversarial mode (scenarios/v2-eval-run-surface/0081-d-modes.ts): each
// entry one named defect in the safety findings an adversarial run reports (RFC 0081 §C, §D). The
// last drops them from a run of golden and adversarial, which the adversarial-only probe never
// showed: the leg now also seeds a suite of those two modes.

import type { ReferenceHostOptions } from '../../../reference/server.ts';
import { type KnownBadHost, engine } from '../build.ts';

/** The honest base: a host advertising the adversarial mode among all five RFC 0081 §D modes. */
const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

/** Every task entry of an adversarial run's summary (whose modes `when` picks) rewritten by `edit`, with the suite task's output. */
function tasksEdited(
  edit: (entry: Record<string, unknown>, output: unknown) => Record<string, unknown>,
  when: (modes: string[]) => boolean = () => true,
): (summary: Record<string, unknown>, suite: { modes: string[]; tasks: Array<{ taskId: string; input: unknown }> }) => Record<string, unknown> {
  return (summary, suite) => {
    if (!suite.modes.includes('adversarial') || !when(suite.modes)) return summary;
    const tasks = Array.isArray(summary.tasks) ? (summary.tasks as Array<Record<string, unknown>>) : [];
    return {
      ...summary,
      tasks: tasks.map((entry) => edit(entry, (suite.tasks.find((task) => task.taskId === entry.taskId)?.input as { output?: unknown } | undefined)?.output)),
    };
  };
}

export const ADVERSARIAL: KnownBadHost[] = [
  {
    name: 'adversarial-without-safety-findings',
    defect: 'an adversarial run serves no safetyFindings on its tasks, the primary output of the mode',
    clause: 'RFC 0081 §D',
    ...engine(
      {
        outgoingSummary: tasksEdited((entry) => {
          const { safetyFindings: _dropped, ...rest } = entry;
          return rest;
        }),
      },
      ALL_MODES,
      ALL_MODES,
    ),
  },
  {
    name: 'safety-finding-excerpts-answer',
    defect: "an adversarial task's safety finding names its kind with the agent's answer in it",
    clause: 'RFC 0081 §C',
    ...engine(
      { outgoingSummary: tasksEdited((entry, output) => ({ ...entry, safetyFindings: [{ kind: `answered-${String(output)}`, severity: 'low' }] })) },
      ALL_MODES,
      ALL_MODES,
    ),
  },
  {
    name: 'findings-only-when-adversarial-alone',
    defect: "safetyFindings are served only when adversarial is the run's one mode: a run of golden and adversarial has none",
    clause: "RFC 0081 §D (adversarial: safetyFindings is the primary output), §A (a suite's modes are the modes it exercises)",
    ...engine(
      {
        outgoingSummary: tasksEdited(
          (entry) => {
            const { safetyFindings: _dropped, ...rest } = entry;
            return rest;
          },
          (modes) => modes.length > 1,
        ),
      },
      ALL_MODES,
      ALL_MODES,
    ),
  },
];
