// The measured figures the documents quote, so that none is written by hand: each sits between
// inline markers, `<!-- figure:NAME -->TEXT<!-- /figure -->`, and `npx tsx scripts/doc-figures.ts`
// rewrites TEXT from where it comes from: the bench rows of bench/RESULTS.md (after
// `npm run bench -- SECTION --write`; DOC_FIGURES), or what `run` prints when it certifies the
// reference host at the figures' seed (COMMAND_FIGURES, scripts/doc-figures-command.ts).
// test/doc-figures.test.ts holds every marker to its source. The samples of command output are
// the other kind of generated figure (test/readme-samples.test.ts).

/** One row of a bench table: its measurement and figure cells. */
export interface BenchRow {
  measurement: string;
  figure: string;
}

export interface DocFigure {
  name: string;
  /** The document quoting it, from the repository root. */
  doc: string;
  /** The `## ` section of bench/RESULTS.md it comes from. */
  section: string;
  /** The text quoted, from the rows of the section's latest table. */
  text(rows: BenchRow[]): string;
}

/** The row whose measurement starts with `start`, or a Test bug naming what is missing. */
function rowStarting(rows: BenchRow[], start: string): BenchRow {
  const row = rows.find((r) => r.measurement.startsWith(start));
  if (row === undefined) throw new Error(`Test bug: bench/RESULTS.md has no row starting "${start}"`);
  return row;
}

function matched(text: string, pattern: RegExp): RegExpExecArray {
  const match = pattern.exec(text);
  if (match === null) throw new Error(`Test bug: the bench figure "${text}" does not read as ${pattern}`);
  return match;
}

export const DOC_FIGURES: readonly DocFigure[] = [
  {
    name: 'archive-size',
    doc: 'docs/auditing.md',
    section: 'The archive and its replay',
    text: (rows) => {
      const [, gz, json] = matched(rowStarting(rows, 'the archive of a full certification').figure, /^(\d+) KiB gzip-compressed \((\d+) KiB of JSON/);
      return `${json} KiB of JSON and ${gz} KiB gzip-compressed`;
    },
  },
  {
    name: 'kill-matrix-wall',
    doc: 'hosts/known-bad/README.md',
    section: 'Kill matrix',
    text: (rows) => `${Math.round(Number(matched(rowStarting(rows, '`npx vitest run test/kill-matrix.test.ts').figure, /^([\d.]+) s wall/)[1]))} s`,
  },
  {
    name: 'whole-run-slowest',
    doc: 'docs/certifying.md',
    section: 'Whole-run hostile hosts',
    text: (rows) => {
      const walls = rows
        .filter((r) => r.measurement.includes('on every stream, whole certification'))
        .map((r) => ({ behaviour: /^`([\w-]+)`/.exec(r.measurement)?.[1] ?? '?', seconds: Number(matched(r.figure, /^([\d.]+) s wall/)[1]) }));
      const slowest = walls.reduce((a, b) => (b.seconds > a.seconds ? b : a));
      return `\`${slowest.behaviour}\`, ${slowest.seconds} s`;
    },
  },
  {
    name: 'npm-ci',
    doc: 'README.md',
    section: 'Install: npm ci from an empty cache',
    text: (rows) => {
      const after = rows.find((r) => r.measurement.includes('(the store on node-sqlite3-wasm)'));
      const before = rows.find((r) => r.measurement.includes('(the store on better-sqlite3)'));
      if (after === undefined || before === undefined) throw new Error('Test bug: bench/RESULTS.md lacks the two npm ci rows');
      const wall = (row: BenchRow) => matched(row.figure, /^([\d.]+) s wall/)[1];
      const build = matched(after.figure, /`npm run build` alone ([\d.]+) s/)[1];
      return `${wall(after)} s from an empty cache, the TypeScript build (\`prepare\`, ${build} s alone) included, against ${wall(before)} s when the store was a native addon compiled from source`;
    },
  },
  {
    name: 'hostile-peak',
    doc: 'docs/certifying.md',
    section: 'Hostile hosts',
    text: (rows) => {
      const highest = highestPeak(rows.filter((r) => /^`[\w-]+`: /.test(r.measurement)));
      return `\`${highest.behaviour}\`, ${highest.mb} MB`;
    },
  },
  {
    name: 'hostile-slowest',
    doc: 'hosts/known-bad/README.md',
    section: 'Hostile hosts',
    text: (rows) => {
      const walls = rows
        .filter((r) => /^`[\w-]+`: /.test(r.measurement))
        .map((r) => ({ behaviour: /^`([\w-]+)`/.exec(r.measurement)![1]!, seconds: Number(matched(r.figure, /^([\d.]+) s wall/)[1]) }));
      const slowest = walls.reduce((a, b) => (b.seconds > a.seconds ? b : a));
      return `\`${slowest.behaviour}\`, ${slowest.seconds} s`;
    },
  },
  {
    name: 'whole-run-peak',
    doc: 'hosts/known-bad/README.md',
    section: 'Whole-run hostile hosts',
    text: (rows) => {
      const highest = highestPeak(rows.filter((r) => r.measurement.includes('on every stream, whole certification')));
      const archived = rows
        .find((r) => r.measurement.startsWith(`\`${highest.behaviour}\``) && r.figure.startsWith(highest.figure))
        ?.measurement.includes('--archive');
      return `\`${highest.behaviour}\`${archived ? ' with --archive' : ''}, ${highest.mb} MB`;
    },
  },
];

/** The row of the highest peak resident set among `rows` (figures reading "… N MB peak RSS"). */
function highestPeak(rows: BenchRow[]): { behaviour: string; mb: number; figure: string } {
  const peaks = rows.map((r) => ({
    behaviour: /^`([\w-]+)`/.exec(r.measurement)?.[1] ?? '?',
    mb: Number(matched(r.figure, /(\d+) MB peak RSS/)[1]),
    figure: r.figure,
  }));
  if (peaks.length === 0) throw new Error('Test bug: no bench row with a peak RSS');
  return peaks.reduce((a, b) => (b.mb > a.mb ? b : a));
}

/** A figure taken from what `run` prints on the reference host (scripts/doc-figures-command.ts). */
export interface CommandFigure {
  name: string;
  doc: string;
  text(out: string): string;
}

/** The served-coverage line `run` prints (lib/report/coverage.ts), up to its share. */
function coverageOf(out: string): RegExpExecArray {
  return matched(out, /^served coverage: (\d+ of \d+ exchanges matched to a route and checked \(([\d.]+ %)\))/m);
}

export const COMMAND_FIGURES: readonly CommandFigure[] = [
  { name: 'served-coverage', doc: 'docs/certifying.md', text: (out) => `\`served coverage: ${coverageOf(out)[1]}\`` },
  { name: 'served-coverage-share', doc: 'README.md', text: (out) => coverageOf(out)[2]! },
];

/** The rows of the latest table of a `## ` section of bench/RESULTS.md. */
export function benchRows(results: string, section: string): BenchRow[] {
  const block = results.split(/^(?=## )/m).find((b) => b.startsWith(`## ${section}\n`));
  if (block === undefined) throw new Error(`Test bug: bench/RESULTS.md has no section "${section}"`);
  const tables = block.split(/^Measured /m).slice(1);
  const latest = tables.at(-1) ?? '';
  return latest
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| measurement |'))
    .map((line) => {
      // A cell may hold `|` only escaped; the measurement and figure are the first two cells.
      const cells = line.slice(2, -2).split(/ (?<!\\)\| /);
      return { measurement: cells[0] ?? '', figure: cells[1] ?? '' };
    });
}

const MARKER = /<!-- figure:([\w-]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** Every figure marker in a document: its name and the text between the markers. */
export function quotedFigures(doc: string): Array<{ name: string; text: string }> {
  return [...doc.matchAll(MARKER)].map((m) => ({ name: m[1]!, text: m[2]! }));
}

/**
 * The document with each figure's text rewritten: a bench figure from `results`, a command figure
 * from `output` (what `run` printed), or left as it stands when no output is given.
 */
export function withFigures(doc: string, results: string, output?: string): string {
  return doc.replace(MARKER, (whole, name: string) => {
    const command = COMMAND_FIGURES.find((f) => f.name === name);
    if (command !== undefined) return output === undefined ? whole : `<!-- figure:${name} -->${command.text(output)}<!-- /figure -->`;
    const figure = DOC_FIGURES.find((f) => f.name === name);
    if (figure === undefined) throw new Error(`Test bug: no figure named ${name} in scripts/doc-figures-section.ts`);
    return `<!-- figure:${name} -->${figure.text(benchRows(results, figure.section))}<!-- /figure -->`;
  });
}
