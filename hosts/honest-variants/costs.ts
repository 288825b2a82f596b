// Honest variants of the costs a host serves (RFC 0081 §C, docs/wire.md §7): `totalCostUsd` and
// `costUsd` are optional and summed from `provider.usage`, whose `costEstimateUsd` is optional too.

import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { HonestVariant } from './catalogue.ts';

export const COST_VARIANTS: HonestVariant[] = [
  {
    name: 'cost-left-out-when-unpriced',
    choice: 'a run whose provider.usage events carry no costEstimateUsd serves no totalCostUsd and no costUsd anywhere (unknown, not 0)',
    clause: 'RFC 0081 §C (totalCostUsd summed from provider.usage), docs/wire.md §7 (totalCostUsd and costUsd optional)',
    shows: 'totalCostUsd left out of a run none of whose provider.usage events carried a cost',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit) => {
          let priced = false;
          return (type, payload) => {
            if (type === 'provider.usage' && payload.costEstimateUsd !== undefined) priced = true;
            if (priced || (type !== 'eval.scored' && type !== 'eval.completed')) return emit(type, payload);
            const { costUsd: _cost, totalCostUsd: _total, ...rest } = payload;
            emit(type, rest);
          };
        },
        outgoingSummary: (summary, suite) => {
          const served = REFERENCE_BEHAVIOUR.outgoingSummary(summary, suite);
          if (served.totalCostUsd !== 0) return served;
          const { totalCostUsd: _total, ...rest } = served;
          return { ...rest, tasks: (rest.tasks as Record<string, unknown>[]).map(({ costUsd: _cost, ...task }) => task) };
        },
      },
    },
  },
];
