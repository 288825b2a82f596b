// Known-bad hosts of the readings issue 19 widened (CONTRACT §6): each is an honest variant of
// hosts/honest-variants/limits-optional.ts with one named defect, so the wider reading still
// fails the host that breaks the clause under it.

import { LIMIT_AND_OPTIONAL_VARIANTS } from '../../honest-variants/limits-optional.ts';
import { REFERENCE_BEHAVIOUR } from '../../reference/eval/index.ts';
import { REFERENCE_PLAN_RULES } from '../../reference/eval/plan.ts';
import { signTestVerdict } from '../../reference/eval/regression.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';
import type { KnownBadHost } from './build.ts';

function honest(name: string): ReferenceHostOptions {
  const variant = LIMIT_AND_OPTIONAL_VARIANTS.find((v) => v.name === name);
  if (variant === undefined) throw new Error(`Test bug: no honest variant ${name}`);
  return variant.options;
}

/** `base` with its engine behaviours and `behaviour` on top. */
function on(base: ReferenceHostOptions, behaviour: ReferenceHostOptions['engineBehaviour']): Pick<KnownBadHost, 'base' | 'options'> {
  return { base, options: { ...base, engineBehaviour: { ...base.engineBehaviour, ...behaviour } } };
}

const BATCHED = honest('scored-in-batches-after-trials');
const PATH_ARRAY = honest('field-named-by-path-array');
const UNSERVED_ALPHA = honest('sign-test-alpha-unserved');

export const LATITUDE: KnownBadHost[] = [
  {
    name: 'batched-scored-trials-mislabelled',
    defect: "a task's eval.scored come in a batch after its brackets, each naming another trial's trialIndex (n−1−i)",
    clause: "RFC 0244 §B (eval.scored carries its trial's trialIndex)",
    ...on(BATCHED, {
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
    defect: 'the §G refusal names agentId, not the refused field, in its details.errors[].loc path array',
    clause: 'RFC 0244 §G (naming the field)',
    ...on(PATH_ARRAY, {
      featureRefusal: (suite, facets) => {
        const refusal = REFERENCE_PLAN_RULES.featureRefusal(suite, facets);
        return refusal && { ...refusal, message: 'the suite uses a feature this host does not advertise', details: { errors: [{ loc: ['body', 'agentId'] }] } };
      },
    }),
  },
  {
    name: 'unserved-alpha-verdict-reversed',
    defect: 'with alpha not served, the sign-test verdict names the direction opposite to the paired tasks',
    clause: 'RFC 0244 §F',
    ...on(UNSERVED_ALPHA, {
      regressionVerdict: (up, down) => {
        const verdict = signTestVerdict(up, down, 0.2);
        return verdict === 'improved' ? 'regressed' : verdict === 'regressed' ? 'improved' : verdict;
      },
    }),
  },
];
