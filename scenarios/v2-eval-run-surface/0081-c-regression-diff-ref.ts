// v2-eval-run-surface/0081-c-regression-diff-ref — RFC 0081 §C: the regression block's diffRef.
//
// Legs:
//   1. openwop.requirement.0081.regression-diff-ref  a served `diffRef` is a non-empty string (the pointer to the
//      RFC 0054 :diff, the eval-summary schema)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Checked on the runs of the regression verdicts (../v2-eval-trajectory-trials/0244-f-verdicts.ts):
// needs agents.evalSuite.regressionVerdict and their four fixtures.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { validate } from '../../lib/schemas/index.ts';
import { BASELINE, CANDIDATES, verdictRun } from '../support/verdict-runs.ts';

export default defineScenario('v2-eval-run-surface/0081-c-regression-diff-ref.ts', [
  {
    id: 'openwop.requirement.0081.regression-diff-ref',
    title: 'a regression block that carries diffRef carries it as a non-empty pointer string',
    clause: 'RFC 0081 §C',
    needs: { facet: ['regressionVerdict'], fixtures: [BASELINE, ...Object.values(CANDIDATES)] },
    async run(check, target) {
      let served = 0;
      for (const candidateId of Object.values(CANDIDATES)) {
        const run = await verdictRun(check, target, candidateId);
        if (!('diffRef' in run.regression)) continue;
        served += 1;
        const diffRef = run.regression.diffRef;
        // RFC 0081 §C: "a pointer to the RFC 0054 :diff against baselineRunId"; its form is RFC
        // 0054's, so only what the eval-summary schema fixes is checked: a non-empty string.
        check.ok(typeof diffRef === 'string' && diffRef.length > 0, `${candidateId}: regression.diffRef is a non-empty string`, diffRef);
        const valid = validate('eval-summary', run.summary);
        check.ok(valid.ok, `${candidateId}: the summary carrying diffRef validates`, valid.ok ? undefined : valid.errors);
      }
      if (served === 0) check.inapplicable('the host serves no regression.diffRef (optional, RFC 0081 §C)');
    },
  },
]);
