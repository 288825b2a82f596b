// Concurrent legs (lib/ledger/schedule.ts): a certification at concurrency 1 and at 8 gives the
// same rows, the same JSON report and JUnit file and the same bundle witness digest; a leg that
// reads shared host state (CONTRACT §5) never overlaps another leg on a host with only the first
// seams, and runs beside the others on one that reads effects per run; every leg that reads those
// seams says so; --concurrency and OPENWOP_MAX_WORKERS are read like the other flags.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificationSeed } from '../lib/certification-seed.ts';
import { cli } from './support/cli.ts';
import { loadFixtures } from '../lib/fixtures.ts';
import { runLegs } from '../lib/ledger/runner.ts';
import { readConcurrency } from '../commands/support/run-settings.ts';
import { DEFAULT_CONCURRENCY, schedule } from '../lib/ledger/schedule.ts';
import type { HostLeg, Leg, Scenario, SharedHostState } from '../lib/ledger/scenario.ts';
import type { Target } from '../lib/ledger/target.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { Findings } from '../lib/ledger/findings.ts';
import type { ObservedRun } from '../lib/ledger/observed-run.ts';
import { compareServed } from '../lib/ledger/served-facts.ts';

const scenarios = await loadScenarios();

interface Certified {
  code: number;
  /** The progress lines, `[n/total] result id`, in the order they were printed. */
  progress: string[];
  /** Stdout without the lines naming where the bundle and the archive were written (a per-run directory). */
  out: string;
  /** The JSON report without what is per-run by nature: when it was written, the host's port. */
  report: Record<string, unknown>;
  junit: string;
  bundle: { witnessSha256: string; results: unknown };
}

async function certifyEmbedded(concurrency: number): Promise<Certified> {
  const dir = mkdtempSync(join(tmpdir(), `concurrency-${concurrency}-`));
  const files = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), bundle: join(dir, 'bundle.json') };
  const run = await cli(
    'run',
    '--concurrency',
    String(concurrency),
    // One seed for both runs: the generated suites, and so the rows, are the seed's.
    '--seed',
    '0c0c0c0c0c0c0c0c',
    '--progress',
    'lines',
    '--report-json',
    files.report,
    '--junit',
    files.junit,
    '--certify',
    files.bundle,
  );
  const report = JSON.parse(readFileSync(files.report, 'utf8')) as {
    generatedAt: string;
    durationMs: number;
    target: Record<string, unknown>;
    rows: Array<{ durationMs: number }>;
  };
  expect(report.generatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(report.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const bundle = JSON.parse(readFileSync(files.bundle, 'utf8')) as Certified['bundle'];
  return {
    code: run.code,
    progress: run.err.split('\n').filter((line) => /^\[\d+\/\d+\]/.test(line)),
    // The archive's lines name its folder, its size and its exchanges, which differ run to run.
    out: run.out
      .replace(/^bundle written to .*$/m, 'bundle written to <dir>')
      .replace(/^archive (written|bound) .*$/gm, 'archive $1 <per run>')
      .replace(/^eval certificate written to .*$/m, 'eval certificate written to <per run>'),
    // When, on which port and how long each leg took are per run by nature; the rest is not.
    report: {
      ...report,
      generatedAt: '<per run>',
      durationMs: '<per run>',
      target: { ...report.target, baseUrl: '<per run>' },
      rows: report.rows.map((row) => ({ ...row, durationMs: '<per run>' })),
    },
    junit: readFileSync(files.junit, 'utf8')
      .replace(/ time="[0-9.]+"/g, ' time="<per run>"')
      .replace(/ timestamp="[^"]*"/g, ' timestamp="<per run>"')
      .replace(/(<property name="target.baseUrl" value=")[^"]*"/g, '$1<per run>"'),
    bundle: { witnessSha256: bundle.witnessSha256, results: bundle.results },
  };
}

describe('a certification of the embedded reference host at concurrency 1 and at 8', () => {
  let one: Certified;
  let eight: Certified;
  // Two whole certifications on a machine that may be busy: a generous bound, not a timed assertion.
  beforeAll(async () => {
    one = await certifyEmbedded(1);
    eight = await certifyEmbedded(8);
  }, 240_000);

  it('certifies, with every row reported', () => {
    expect(one.code).toBe(0);
    expect(eight.code).toBe(0);
    expect(one.progress.length).toBe(scenarios.flatMap((s) => s.legs).length);
  });

  it('gives the same rows, ids, results, details and evidence, reported in declaration order', () => {
    expect((eight.report as { rows: unknown }).rows).toEqual((one.report as { rows: unknown }).rows);
    expect(eight.progress).toEqual(one.progress);
    expect(one.progress.map((line) => line.split(/\s+/).pop())).toEqual(scenarios.flatMap((s) => s.legs.map((leg) => leg.id)));
  });

  it('writes the same JSON report and JUnit file, byte for byte but for when, on which port and how long', () => {
    expect(eight.report).toEqual(one.report);
    expect(eight.junit).toBe(one.junit);
    expect(eight.out).toBe(one.out);
  });

  it('signs the same witness digest', () => {
    expect(eight.bundle.witnessSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(eight.bundle).toEqual(one.bundle);
  });
});

/** A host leg that counts the legs in flight while it runs; `finishAfter` turns of the event loop. */
function probeLeg(
  slug: string,
  log: Array<{ id: string; inFlightAtStart: number; peakWhileRunning: number }>,
  state: { inFlight: number },
  finishAfter: number,
  observes?: SharedHostState[],
): HostLeg {
  return {
    id: `openwop.requirement.0244.${slug}`,
    title: 'a probe leg',
    clause: 'RFC 0244 §B',
    needs: { facet: [] },
    ...(observes ? { observes } : {}),
    async run(check) {
      state.inFlight += 1;
      const entry = { id: slug, inFlightAtStart: state.inFlight, peakWhileRunning: state.inFlight };
      log.push(entry);
      for (let turn = 0; turn < finishAfter; turn += 1) {
        await new Promise((resolve) => setImmediate(resolve));
        entry.peakWhileRunning = Math.max(entry.peakWhileRunning, state.inFlight);
      }
      state.inFlight -= 1;
      check.ok(true, 'ran');
    },
  };
}

function probeTarget(runEffects = false): Target {
  const target: Target = {
    runEffects,
    label: '[probe@1.0]',
    baseUrl: 'http://127.0.0.1:9',
    client: {} as never,
    discovery: {},
    facet: { modes: ['golden'] },
    fixtures: new Set(),
    seams: true,
    requireBehavior: false,
    fixtureDocs: loadFixtures(),
    seed: certificationSeed(),
    memo: (_key, make) => make(target),
  };
  return target;
}

/** Twelve legs, the later ones finishing first; legs 3 and 8 read shared state when `declared`. */
async function probeRun(concurrency: number, declared: boolean, runEffects = false) {
  const log: Array<{ id: string; inFlightAtStart: number; peakWhileRunning: number }> = [];
  const state = { inFlight: 0 };
  const legs = Array.from({ length: 12 }, (_, i) =>
    probeLeg(`probe-${i}`, log, state, 24 - 2 * i, declared && (i === 3 || i === 8) ? ['counters'] : undefined),
  );
  const reported: string[] = [];
  const rows = await runLegs([{ file: 'probe.test.ts', legs }], probeTarget(runEffects), { concurrency, onRow: (row) => reported.push(row.id) });
  return { log, rows, reported, peak: Math.max(...log.map((entry) => entry.peakWhileRunning)) };
}

describe('the scheduler', () => {
  it('runs a leg that reads shared host state with no other leg in flight, and the others up to the limit', async () => {
    const { log, rows, reported, peak } = await probeRun(4, true);
    for (const id of ['probe-3', 'probe-8']) expect(log.find((entry) => entry.id === id)).toMatchObject({ inFlightAtStart: 1, peakWhileRunning: 1 });
    expect(peak).toBe(4);
    // Started in declaration order: a leg run alone sees every earlier leg done and no later one begun.
    expect(log.map((entry) => entry.id)).toEqual(Array.from({ length: 12 }, (_, i) => `probe-${i}`));
    expect(rows.map((row) => row.id)).toEqual(Array.from({ length: 12 }, (_, i) => `openwop.requirement.0244.probe-${i}`));
    expect(reported).toEqual(rows.map((row) => row.id));
    for (const row of rows) expect(row.result).toBe('executed-pass');
  });

  it('on a host that reads effects per run, runs no leg alone', async () => {
    const { log, rows, peak } = await probeRun(4, true, true);
    expect(log.filter((entry) => (entry.id === 'probe-3' || entry.id === 'probe-8') && entry.peakWhileRunning > 1)).not.toEqual([]);
    expect(peak).toBe(4);
    for (const row of rows) expect(row.result).toBe('executed-pass');
  });

  it('the overlap check catches a leg that reads shared state without declaring it', async () => {
    const { log } = await probeRun(4, false);
    expect(log.filter((entry) => (entry.id === 'probe-3' || entry.id === 'probe-8') && entry.peakWhileRunning > 1)).not.toEqual([]);
  });

  it('at concurrency 1 runs the legs one at a time, in declaration order', async () => {
    const { log, peak } = await probeRun(1, true);
    expect(peak).toBe(1);
    expect(log.map((entry) => entry.id)).toEqual(Array.from({ length: 12 }, (_, i) => `probe-${i}`));
  });

  it('a job that throws stops new jobs, awaits those in flight, then throws', async () => {
    const started: number[] = [];
    let settled = 0;
    const jobs = Array.from({ length: 6 }, (_, i) => ({
      alone: false,
      start: async () => {
        started.push(i);
        await new Promise((resolve) => setImmediate(resolve));
        settled += 1;
        if (i === 1) throw new Error('harness bug');
        return i;
      },
    }));
    await expect(schedule(jobs, 2)).rejects.toThrow('harness bug');
    expect(started.length).toBeLessThan(jobs.length);
    expect(settled).toBe(started.length);
  });
});

/**
 * The shared host state a leg's code reads through the seams of CONTRACT §5, directly or through
 * scenarios/support/effects.ts (the effects always, the keyed counters it is given).
 */
function readsOf(leg: Leg): SharedHostState[] {
  const source = leg.run.toString();
  const reads: SharedHostState[] = [];
  if (/\b(readCounter|counter)\(|\bcounterKeys:/.test(source)) reads.push('counters');
  if (/\b(readEffects|effects|observeLiveEffects)\(/.test(source)) reads.push('effects');
  return reads;
}

function undeclared(legs: readonly Leg[]): string[] {
  return legs.flatMap((leg) =>
    readsOf(leg)
      .filter((state) => leg.serverFree || !(leg.observes ?? []).includes(state))
      .map((state) => `${leg.id} reads ${state}`),
  );
}

describe('every leg that reads shared host state declares it', () => {
  it('holds for every leg of the harness', () => {
    const legs = scenarios.flatMap((scenario: Scenario) => scenario.legs);
    expect(legs.filter((leg) => readsOf(leg).length > 0).length).toBeGreaterThan(0);
    expect(undeclared(legs)).toEqual([]);
  });

  it('names a leg that reads the counter seam and does not declare it', () => {
    const leg: HostLeg = {
      id: 'openwop.requirement.0244.sneaky',
      title: 'a probe leg',
      clause: 'RFC 0244 §D',
      needs: { facet: [] },
      observes: ['effects'],
      async run(check, target) {
        const { readCounter } = await import('../lib/client/index.ts');
        check.ok((await readCounter(target.client, 'k')).ok, 'read');
      },
    };
    expect(undeclared([leg])).toEqual(['openwop.requirement.0244.sneaky reads counters']);
  });
});

describe('--concurrency and OPENWOP_MAX_WORKERS', () => {
  it('the flag wins over the environment, which wins over the default', () => {
    expect(readConcurrency('3', { OPENWOP_MAX_WORKERS: '5' })).toEqual({ ok: true, concurrency: 3 });
    expect(readConcurrency(undefined, { OPENWOP_MAX_WORKERS: '5' })).toEqual({ ok: true, concurrency: 5 });
    expect(readConcurrency(undefined, {})).toEqual({ ok: true, concurrency: DEFAULT_CONCURRENCY });
    expect(readConcurrency('64', {})).toEqual({ ok: true, concurrency: 64 });
  });

  it('refuses anything but an integer from 1 to 64, in one line', () => {
    for (const bad of ['0', '65', '2.5', '-1', 'many', '1e1']) {
      const read = readConcurrency(bad, {});
      expect(read.ok, bad).toBe(false);
      expect(!read.ok && read.problem).toBe(`--concurrency (or OPENWOP_MAX_WORKERS) must be an integer from 1 to 64, got "${bad}"`);
    }
  });

  it('a bad value is a usage error (exit 2) before any host is reached', async () => {
    const run = await cli('run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--concurrency', '0');
    expect(run.code).toBe(2);
    expect(run.err).toBe('openwop-eval-conformance: --concurrency (or OPENWOP_MAX_WORKERS) must be an integer from 1 to 64, got "0" (see --help)\n');
  });
});

describe('the compare step of the served facts', () => {
  it('compares the observed runs in the order of what they were, whatever order the legs ended in', () => {
    // Legs running concurrently queue their runs in the order they end; the findings, and so each
    // row's detail, which the bundle signs, must not follow it (a replay would not reproduce it).
    const compared = (queued: string[]) => {
      const order: string[] = [];
      const runs = queued.map((name) => ({ fixture: { id: name }, request: {}, runId: name, compare: () => order.push(name) }) as unknown as ObservedRun);
      compareServed(runs, new Findings());
      expect(runs.filter((run) => run.compare !== undefined)).toEqual([]);
      return order;
    };
    const names = ['conformance-eval-trials', 'conformance-eval-efficiency', 'conformance-eval-trajectory', 'conformance-eval-delegates'];
    const sorted = compared(names);
    expect(compared([...names].reverse())).toEqual(sorted);
    expect(compared([names[2]!, names[0]!, names[3]!, names[1]!])).toEqual(sorted);
  });
});
