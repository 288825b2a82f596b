// `npm run bench [-- SECTION… ] [--write]`: the figures the issues ask for, measured on this
// machine and printed; with --write they replace their sections of bench/RESULTS.md (the other
// sections stay as they were, and so does a section that throws). SECTION is a word of a
// section's name, e.g. `latitude`, or a whole name, which selects that section alone (`"kill
// matrix"`, not also "Kill matrix: generated wire mutants"); none runs every section. Speed
// targets live here, never in tests.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchAgentevals } from './agentevals.ts';
import { benchArchive } from './archive.ts';
import { benchCertify } from './certify.ts';
import { benchConcurrentLegs } from './concurrency.ts';
import { benchGrader, type BenchResult } from './grader.ts';
import { benchHost } from './host.ts';
import { benchHostile } from './hostile.ts';
import { benchInstall } from './install.ts';
import { benchWholeRunHostile } from './hostile-whole-run.ts';
import { benchKillMatrix } from './kill-matrix.ts';
import { benchGeneratedVariants, benchLatitudeMatrix } from './latitude-matrix.ts';
import { benchOpenReadings } from './open-readings.ts';
import { benchSchemaStartup } from './startup.ts';
import { benchFirstRequest, benchLatencyProxy, benchWholeProcess } from './waiting.ts';
import { benchGenerated } from './generated.ts';
import { benchNpmTest } from './npm-test.ts';
import { benchWireMutants } from './wire-mutants.ts';

const args = process.argv.slice(2);
const write = args.includes('--write');
const wanted = args.filter((arg) => arg !== '--write').map((arg) => arg.toLowerCase());
const SECTIONS = [
  ['Reference grader', benchGrader],
  ['Reference grader vs agentevals', benchAgentevals],
  ['Reference host', benchHost],
  ['Certification', benchCertify],
  ['Kill matrix', benchKillMatrix],
  ['Latitude matrix', benchLatitudeMatrix],
  ['Latitude matrix: generated variants', benchGeneratedVariants],
  ['Latitude matrix: open readings across seeds', benchOpenReadings],
  ['Start-up: schemas compiled or precompiled', benchSchemaStartup],
  ['Waiting: latency proxy', benchLatencyProxy],
  ['Waiting: concurrent legs', benchConcurrentLegs],
  ['Waiting: process start to first request', benchFirstRequest],
  ['Waiting: npm start and the CPU split', benchWholeProcess],
  ['Hostile hosts', benchHostile],
  ['Generated suites', benchGenerated],
  ['The archive and its replay', benchArchive],
  ['Whole-run hostile hosts', benchWholeRunHostile],
  ['Kill matrix: generated wire mutants', benchWireMutants],
  ['npm test, file by file', benchNpmTest],
  ['Install: npm ci from an empty cache', benchInstall],
] as const;
const names = SECTIONS.map(([section]) => section.toLowerCase());
/** A whole section's name selects that section alone; any other word, every section whose name holds it. */
const selects = (word: string, section: string): boolean => (names.includes(word) ? section.toLowerCase() === word : section.toLowerCase().includes(word));
const results: Array<[string, BenchResult[]]> = [];
/**
 * Sections that threw (a matrix that no longer holds, a command that failed): named at the end,
 * the run exits 1, and --write keeps their last written figures. The other sections still run.
 */
const thrown: Array<[string, string]> = [];
for (const [section, bench] of SECTIONS) {
  if (wanted.length > 0 && !wanted.some((word) => selects(word, section))) continue;
  process.stderr.write(`bench: ${section}…\n`);
  try {
    results.push([section, await bench()]);
  } catch (error) {
    const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
    thrown.push([section, reason]);
    process.stderr.write(`bench: ${section} threw, and its figures are not written: ${reason}\n`);
  }
}

/** Which tree was measured: its commit, and whether it had changes git does not hold. */
function checkoutOf(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'outside a git checkout';
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return `at commit ${head.stdout.trim()}${dirty ? ' with uncommitted changes' : ''}`;
}
const checkout = checkoutOf();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}, ${process.platform}`;
const header = [
  '# Benchmark results',
  '',
  'Written by `npm run bench -- --write` (bench/run.ts). Medians of several runs after a warm-up where',
  'a figure says so; wall-clock figures on a shared machine vary by a few tens of percent between runs.',
  'Each section names the date and machine it was measured on.',
  '',
];
const sections = new Map<string, string>();
const out = fileURLToPath(new URL('RESULTS.md', import.meta.url));
if (existsSync(out)) {
  for (const block of readFileSync(out, 'utf8')
    .split(/^(?=## )/m)
    .slice(1))
    sections.set(block.slice(3, block.indexOf('\n')).trim(), block.trimEnd());
}
for (const [section, rows] of results) {
  const lines = [
    `## ${section}`,
    '',
    `Measured ${new Date().toISOString()} on ${machine}, ${checkout}.`,
    '',
    '| measurement | figure | target | met |',
    '|---|---|---|---|',
  ];
  for (const row of rows) lines.push(`| ${row.name} | ${row.figure} | ${row.target} | ${row.ok ? 'yes' : '**no**'} |`);
  sections.set(section, lines.join('\n'));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
if (write) {
  writeFileSync(out, `${[...header, [...sections.values()].join('\n\n')].join('\n')}\n`);
  process.stdout.write(`written to ${out}\n`);
}
for (const [section, reason] of thrown) process.stderr.write(`bench: ${section} threw: ${reason.split('\n')[0]}\n`);
process.exitCode = thrown.length === 0 && results.every(([, rows]) => rows.every((row) => row.ok)) ? 0 : 1;
