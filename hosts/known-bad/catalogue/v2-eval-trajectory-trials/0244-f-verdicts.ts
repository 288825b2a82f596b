// Known-bad hosts of the RFC 0244 §F verdicts produced (scenarios/v2-eval-trajectory-trials/0244-f-verdicts.ts):
// each entry one named defect in the verdict or the diff pointer of a regression block.

import { isPlainObject } from '../../../reference/eval/json.ts';
import { projectId } from '../../../reference/ids.ts';
import type { ReferenceHostOptions } from '../../../reference/server.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';

/** A summary whose regression block carries `diffRef` as `make` writes it from the baseline id. */
function withDiffRef(make: (baselineRunId: string) => unknown): (summary: Record<string, unknown>) => Record<string, unknown> {
  return (summary) => {
    const regression = summary.regression;
    if (!isPlainObject(regression) || typeof regression.baselineRunId !== 'string') return summary;
    return { ...summary, regression: { ...regression, diffRef: make(regression.baselineRunId) } };
  };
}

/** The honest base of the diffRef defect: a host serving a pointer to the baseline's :diff. */
const DIFF_REF_SERVED: ReferenceHostOptions = { engineBehaviour: { outgoingSummary: withDiffRef((id) => `/runs/${projectId(id)}:diff`) } };

export const REGRESSION_VERDICTS: KnownBadHost[] = [
  {
    name: 'verdict-improved-on-one-rise',
    defect: 'any rise with no fall is reported improved, whatever the sign test p-value',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up > 0 && down === 0 ? 'improved' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'verdict-improvement-undecided',
    defect: 'a significant improvement is reported inconclusive',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (up > down ? 'inconclusive' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'verdict-regression-undecided',
    defect: 'a significant regression is reported inconclusive',
    clause: 'RFC 0244 §F',
    ...engine({ regressionVerdict: (up, down) => (down > up ? 'inconclusive' : REF.regressionVerdict(up, down)) }),
  },
  {
    name: 'diff-ref-empty',
    defect: "regression.diffRef is the empty string, a pointer to nothing (sends what the schema refuses: validateTraffic 'off')",
    clause: 'RFC 0081 §C',
    base: DIFF_REF_SERVED,
    options: { ...DIFF_REF_SERVED, hostBehaviour: { servedSummary: withDiffRef(() => '') }, validateTraffic: 'off' },
  },
];
