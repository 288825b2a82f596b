// The generated-suites leg's flags (docs/certifying.md "Generated suites"): `--seed`, `--generated`, `--suite`
// and `--baseline-suite`, read before any leg runs; and the shrunk reproducer of a failing
// generated suite, written beside the report once the legs have run.

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { EXPLORE_SEED, isSeed } from '../../lib/certification-seed.ts';
import type { Io } from '../../lib/io.ts';
import { makeFolder } from '../../lib/make-folder.ts';
import { MAX_GENERATED_SUITES, type GeneratedPlan } from '../../lib/ledger/target.ts';
import type { Redactor } from '../../lib/redact.ts';
import { checkSuite } from '../../lib/schemas/index.ts';
import { MAX_DOCUMENT_BYTES, readInputText } from '../../lib/input-file.ts';

export { MAX_GENERATED_SUITES };

export interface GeneratedFlags {
  seed?: string;
  generated?: string;
  suite?: string;
  baselineSuite?: string;
  reportJson?: string;
  certify?: string;
}

/**
 * `--seed`, `--generated` and `--suite` (docs/certifying.md "Generated suites"): the seed is 16 to 64
 * lower-case hex digits; `--suite FILE` is an AgentEvalSuite (a `*.repro.json` the leg wrote),
 * valid against schemas/v2/agent-eval-suite.schema.json, and `--baseline-suite FILE` its baseline.
 */
export function readGeneratedPlan(options: GeneratedFlags): { ok: true; count?: number; replay?: GeneratedPlan['replay'] } | { ok: false; problem: string } {
  if (options.seed !== undefined && options.seed !== EXPLORE_SEED && !isSeed(options.seed))
    return { ok: false, problem: `--seed must be 16 to 64 lower-case hex digits or "${EXPLORE_SEED}", got "${options.seed}"` };
  let count: number | undefined;
  if (options.generated !== undefined) {
    count = /^[0-9]+$/.test(options.generated) ? Number(options.generated) : Number.NaN;
    if (!(count <= MAX_GENERATED_SUITES))
      return { ok: false, problem: `--generated must be an integer from 0 to ${MAX_GENERATED_SUITES}, got "${options.generated}"` };
  }
  if (options.baselineSuite !== undefined && options.suite === undefined) return { ok: false, problem: '--baseline-suite applies only with --suite' };
  if (options.suite === undefined) return { ok: true, count };
  const read = (flag: string, file: string): { ok: true; suite: Record<string, unknown> } | { ok: false; problem: string } => {
    let suite: unknown;
    try {
      suite = JSON.parse(readInputText(file, MAX_DOCUMENT_BYTES));
    } catch (error) {
      return { ok: false, problem: `${flag} ${file}: ${(error as Error).message.split('\n')[0]}` };
    }
    const valid = checkSuite(suite);
    if (!valid.ok) return { ok: false, problem: `${flag} ${file} is not a valid AgentEvalSuite: ${valid.errors.slice(0, 3).join('; ')}` };
    return { ok: true, suite: suite as Record<string, unknown> };
  };
  const suite = read('--suite', options.suite);
  if (!suite.ok) return suite;
  const baseline = options.baselineSuite === undefined ? undefined : read('--baseline-suite', options.baselineSuite);
  if (baseline !== undefined && !baseline.ok) return baseline;
  return { ok: true, count, replay: { suite: suite.suite, ...(baseline?.ok ? { baseline: baseline.suite } : {}) } };
}

/**
 * Writes the shrunk reproducer of a failing generated suite beside the report (`<report>.repro.json`,
 * else beside the bundle, else in the temporary folder), and its baseline, if it has one, as
 * `<report>.repro.baseline.json`, and prints how to replay it.
 */
export function writeReproducer(write: {
  reproducer: NonNullable<GeneratedPlan['reproducer']>;
  /** `--report-json` and `--certify`: the reproducer goes beside the first given. */
  options: GeneratedFlags;
  io: Io;
  redactor: Redactor;
}): boolean {
  const { reproducer, options, io, redactor } = write;
  const beside = options.reportJson ?? options.certify;
  const stem = beside === undefined ? join(tmpdir(), `openwop-eval-conformance-${process.pid}`) : resolve(beside);
  const path = `${stem}.repro.json`;
  const baselinePath = `${stem}.repro.baseline.json`;
  try {
    makeFolder(dirname(path));
    writeFileSync(path, `${JSON.stringify(redactor.value(reproducer.suite), null, 2)}\n`);
    if (reproducer.baseline !== undefined) writeFileSync(baselinePath, `${JSON.stringify(redactor.value(reproducer.baseline), null, 2)}\n`);
  } catch (error) {
    io.err(`openwop-eval-conformance: cannot write the reproducer ${path}: ${(error as Error).message}\n`);
    return false;
  }
  const replay = `run --suite ${path}${reproducer.baseline === undefined ? '' : ` --baseline-suite ${baselinePath}`}`;
  io.out(
    `reproducer written to ${path}${reproducer.baseline === undefined ? '' : ` (its baseline: ${baselinePath})`}, shrunk in ${reproducer.shrinkRuns} runs (${reproducer.shrinkMs} ms); ${replay} replays it\n`,
  );
  return true;
}
