// Known-bad hosts of the suite cost ceiling (scenarios/v2-eval-run-surface/0081-d-cost-ceiling.ts):
// each entry one named defect in what the host holds to its maxCostUsdPerSuite.

import Fraction from 'fraction.js';
import { type KnownBadHost, engine } from '../build.ts';

export const COST_CEILING: KnownBadHost[] = [
  {
    name: 'cost-ceiling-per-task',
    defect: 'maxCostUsdPerSuite is held against each task cost alone, so tasks each under it pass together over it',
    clause: 'RFC 0081 §D',
    ...engine({ suiteCeilingCost: (_total, _count, taskCosts = []) => taskCosts.reduce((most, cost) => (cost.gt(most) ? cost : most), new Fraction(0)) }),
  },
];
