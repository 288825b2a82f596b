// Certifies the new honest variants and the new known-bad host, and the known-bad hosts of the
// relaxed rules, as the matrices do.
import { loadScenarios } from '../scenarios/index.ts';
import { brokenRules, certifyConfiguration, requireBehaviorRows } from '../test/support/matrix-harness.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
const scenarios = await loadScenarios();
for (const name of ['tasks-run-in-reverse', 'regression-vs-baseline-as-decline']) {
  const v = HONEST_VARIANTS.find((x) => x.name === name)!;
  const run = await certifyConfiguration(v.options, scenarios, { wire: v.wire, generated: 6 });
  for (const rows of [run.rows, requireBehaviorRows(run)]) {
    const bad = [...rows.values()].filter((r) => r.result === 'executed-fail' || r.result === 'blocked').map((r) => `${r.id} ${r.detail?.slice(0, 300)}`);
    const latitude = [...rows.values()].flatMap((r) => (r.evidence?.latitude as string[] | undefined) ?? []);
    console.log(
      name,
      bad.length ? bad : 'CLEAN',
      'shows:',
      latitude.some((l) => l.includes(v.shows!)),
      run.trafficViolations.length,
    );
  }
}
for (const name of [
  'regression-vs-baseline-halved',
  'derived-in-reverse-order',
  'derived-from-first-invocation',
  'score-delta-reversed',
  'baseline-echoed-unasked',
]) {
  const h = KNOWN_BAD_HOSTS.find((x) => x.name === name)!;
  const run = await certifyConfiguration(h.options, scenarios);
  const ids = [...run.rows.values()].filter((r) => r.result === 'executed-fail').map((r) => r.id);
  console.log(name, JSON.stringify(ids), JSON.stringify([...run.rows.values()].flatMap((r) => brokenRules(r))));
}
