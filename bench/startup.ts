// What the start-up of the built command pays for its JSON schemas (`npm run build` first): every
// validator compiled by Ajv at run time, as the sources do (lib/schemas/index.ts, loadSchemas),
// against every validator loaded from the build's precompiled module (Ajv standalone code,
// lib/schemas/standalone.ts). Each is measured in a fresh `node` child, from just before it
// imports dist/lib/schemas/index.js to the moment it holds a validator for every schema `$id` and
// every event payload `$def` (performance.now() in the child; median of 5). A certification
// validates with nearly all of them (every event and its payload, the summary, discovery, the
// create and poll answers), so compiling on first use only what a run needs saves little.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './grader.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const INDEX = new URL('../dist/lib/schemas/index.js', import.meta.url).href;
const RUNS = 5;

const AT_RUN_TIME = `
const t0 = performance.now();
const { loadSchemas } = await import(${JSON.stringify(INDEX)});
const { ajv, idByName, payloadRefByType } = loadSchemas(false);
for (const ref of new Set([...idByName.values(), ...payloadRefByType.values()])) ajv.getSchema(ref);
process.stdout.write(String(performance.now() - t0));`;

const PRECOMPILED = `
const t0 = performance.now();
const { SCHEMA_NAMES, knownEventTypes, validate, validateEventPayload } = await import(${JSON.stringify(INDEX)});
for (const name of SCHEMA_NAMES) validate(name, {});
for (const type of knownEventTypes()) validateEventPayload(type, {});
process.stdout.write(String(performance.now() - t0));`;

function timeChild(code: string): number {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`the schema timing child failed: ${child.stderr.slice(-500)}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchSchemaStartup(): Promise<BenchResult[]> {
  if (!existsSync(fileURLToPath(new URL('../dist/lib/schemas/precompiled.cjs', import.meta.url)))) throw new Error('no build: run npm run build first');
  const compiled: number[] = [];
  const loaded: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    compiled.push(timeChild(AT_RUN_TIME));
    loaded.push(timeChild(PRECOMPILED));
  }
  const load = `load average ${loadavg()[0]!.toFixed(1)} on a shared machine`;
  const figure = (samples: number[]) => `${median(samples).toFixed(0)} ms (median of ${RUNS}: ${samples.map((v) => v.toFixed(0)).join(', ')})`;
  return [
    {
      name: `every schema compiled by Ajv at run time in a fresh process (module load included), as the sources do; ${load}`,
      figure: figure(compiled),
      target: 'recorded, no target',
      ok: true,
    },
    {
      name: 'every validator loaded from dist/lib/schemas/precompiled.cjs in a fresh process (module load included), as the built command does',
      figure: `${figure(loaded)}; ${(median(compiled) / Math.max(1, median(loaded))).toFixed(1)}× faster`,
      target: 'faster than compiling',
      ok: median(loaded) < median(compiled),
    },
  ];
}
