// v2-eval-trajectory-trials/0244-uq6-args-before-redaction — RFC 0244 UQ 6 (resolved): arguments are matched on the call as executed, before any redaction.
//
// Legs:
//   1. openwop.requirement.0244.args-matched-before-redaction  a host that redacts agent.tool-called inputs still
//      grades arguments on the executed call: its served grade of conformance-eval-trajectory is
//      the fixture's expected grade (on a host that does not redact, the same comparison)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Needs trajectory and the conformance-eval-trajectory fixture.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { requireCompleted, sharedEvalRun, summaryTask } from '../support/eval-run.ts';

const TRAJECTORY = 'conformance-eval-trajectory';

type Json = Record<string, unknown>;

export default defineScenario('v2-eval-trajectory-trials/0244-uq6-args-before-redaction.ts', [
  {
    id: 'openwop.requirement.0244.args-matched-before-redaction',
    title: 'argument matching is decided on the call as executed: the served grade is the expected one, inputs redacted or not',
    clause: 'RFC 0244 UQ 6 (resolved: argsMatch is evaluated against the call as executed, before any wire redaction)',
    needs: { facet: ['trajectory'], fixtures: [TRAJECTORY] },
    async run(check, target) {
      const run = await sharedEvalRun(target, TRAJECTORY);
      // The reference grade cannot recompute arguments the wire redacted; the expected grade can,
      // from the scripts the agent follows (CONTRACT §3).
      const done = requireCompleted(check, run, { trajectoryArgs: false });
      const redacted = done.grade.redactedCallCount ?? 0;
      check.saw(redacted > 0 ? 'the host serves agent.tool-called without inputs' : 'the host serves agent.tool-called with inputs');
      const expected = (done.fixture.expectedGrade.tasks as Json[] | undefined) ?? [];
      for (const task of expected) {
        const served = summaryTask(done.summary, String(task.taskId));
        check.equal(served?.score, task.score, `task ${String(task.taskId)}: score is the expected grade's`);
        check.equal(served?.passed, task.passed, `task ${String(task.taskId)}: passed is the expected grade's`);
        check.equal(served?.trajectory, task.trajectory, `task ${String(task.taskId)}: the trajectory block is the expected grade's`);
      }
    },
  },
]);
