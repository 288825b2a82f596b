// Known-bad hosts of the readings issue 19 widened (CONTRACT §6): each takes one honest choice of
// hosts/honest-variants/limits-optional.ts and adds one named defect, so the wider reading still
// fails the host that breaks the clause under it. The honest choice is part of the entry's engine
// behaviour, so the base is the reference host (or its facet): the rows of the honest choice are
// the reference host's (test/latitude-matrix.test.ts), and the defect alone moves the pinned ones.

import { REFERENCE_BEHAVIOUR } from '../../reference/eval/index.ts';
import { REFERENCE_PLAN_RULES } from '../../reference/eval/plan.ts';
import { signTestVerdict } from '../../reference/eval/regression.ts';
import { engine, type KnownBadHost } from './build.ts';

export const LATITUDE: KnownBadHost[] = [
  {
    name: 'batched-scored-trials-mislabelled',
    defect: "a task's eval.scored come in a batch after its brackets (honest), each naming another trial's trialIndex (n−1−i)",
    clause: "RFC 0244 §B (eval.scored carries its trial's trialIndex)",
    ...engine({
      outgoingEvents: (emit) => {
        let trialCount = 1;
        let held: Array<Record<string, unknown>> = [];
        const send = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
        return (type, payload) => {
          if (type === 'eval.started') trialCount = typeof payload.trialCount === 'number' ? payload.trialCount : 1;
          if (type !== 'eval.scored') return send(type, payload);
          held.push(payload);
          if (held.length < trialCount) return;
          const batch = held;
          held = [];
          for (const scored of batch) send('eval.scored', { ...scored, trialIndex: trialCount - 1 - Number(scored.trialIndex ?? 0) });
        };
      },
    }),
  },
  {
    name: 'path-array-names-another-field',
    defect: 'without trials, the §G refusal names agentId, not the refused field, in its details.errors[].loc path array',
    clause: 'RFC 0244 §G (naming the field)',
    ...engine(
      {
        featureRefusal: (suite, facets) => {
          const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
          return (
            refusal && { ...refusal, message: 'the suite uses a feature this host does not advertise', details: { errors: [{ loc: ['body', 'agentId'] }] } }
          );
        },
      },
      { evalSuite: { trials: false } },
    ),
  },
  {
    name: 'unserved-alpha-verdict-reversed',
    defect: 'with alpha not served (honest), the sign-test verdict names the direction opposite to the paired tasks',
    clause: 'RFC 0244 §F',
    ...engine({
      regressionMethod: { method: 'sign-test' },
      regressionVerdict: (up, down) => {
        const verdict = signTestVerdict(up, down, 0.2);
        return verdict === 'improved' ? 'regressed' : verdict === 'regressed' ? 'improved' : verdict;
      },
    }),
  },
];
