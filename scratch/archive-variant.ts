// Writes the archive of one in-process certification, as the latitude matrix makes it for its
// REPLAYED variant (or of the plain reference host), with its rows, for scratch/sentset.py.
// Usage: tsx scratch/archive-variant.ts VARIANT|reference OUT.har.json
import { writeFileSync } from 'node:fs';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { certifyConfiguration } from '../test/support/matrix-harness.ts';

const [name, out] = process.argv.slice(2) as [string, string];
const scenarios = await loadScenarios();
const variant = HONEST_VARIANTS.find((v) => v.name === name);
const run = await certifyConfiguration(variant?.options ?? {}, scenarios, { ...(variant ? { wire: variant.wire } : {}), generated: 6, archive: true, checkKeys: true });
const { har, rows } = run.archived!;
writeFileSync(out, JSON.stringify(har));
writeFileSync(`${out}.rows.json`, JSON.stringify(rows.map((r) => [r.id, r.result, r.assertions, r.detail ?? ''])));
const replay = await replayCertification(har, scenarios);
console.log(name, 'exchanges', har.log.entries.length, 'replay misses', replay.misses.length, 'rows moved', rowDifferences(rows, replay.rows).length);
