import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';
const scenarios = await loadScenarios();
const run = await certifyConfiguration({}, scenarios, { generated: 0 });
for (const r of run.rows.values())
  if (r.result === 'executed-fail' || r.result === 'blocked')
    console.log(r.id, r.result, JSON.stringify(r.detail).slice(0, 1500), JSON.stringify(r.evidence?.failedRules));
console.log('traffic', JSON.stringify(run.trafficViolations).slice(0, 1500));
