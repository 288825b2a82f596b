// `npm run bench`: every figure the issues ask for, measured on this machine and written to
// bench/RESULTS.md with the machine and the date. Speed targets live here, never in tests.

import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchCertify } from './certify.ts';
import { benchGrader, type BenchResult } from './grader.ts';
import { benchHost } from './host.ts';
import { benchKillMatrix } from './kill-matrix.ts';

const results: Array<[string, BenchResult[]]> = [];
for (const [section, bench] of [
  ['Reference grader', benchGrader],
  ['Reference host', benchHost],
  ['Certification', benchCertify],
  ['Kill matrix', benchKillMatrix],
] as const) {
  process.stderr.write(`bench: ${section}…\n`);
  results.push([section, await bench()]);
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}, ${process.platform}`;
const lines = [
  '# Benchmark results',
  '',
  'Written by `npm run bench` (bench/run.ts). Medians of several runs after a warm-up where a figure',
  'says so; wall-clock figures on a shared machine vary by a few tens of percent between runs.',
  '',
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${machine}`,
  '',
];
for (const [section, rows] of results) {
  lines.push(`## ${section}`, '', '| measurement | figure | target | met |', '|---|---|---|---|');
  for (const row of rows) lines.push(`| ${row.name} | ${row.figure} | ${row.target} | ${row.ok ? 'yes' : '**no**'} |`);
  lines.push('');
}
const out = fileURLToPath(new URL('RESULTS.md', import.meta.url));
writeFileSync(out, `${lines.join('\n')}`);
process.stdout.write(`${lines.join('\n')}\nwritten to ${out}\n`);
process.exitCode = results.every(([, rows]) => rows.every((row) => row.ok)) ? 0 : 1;
