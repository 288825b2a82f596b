// Certifying hosts end to end: the reference host passes every applicable row; switching a facet
// off turns its rows inapplicable (failures under --require-behavior) and brings the refusal legs
// into play; lost connections are blocked, never a host failure and never a hang; no API key
// leaks into any output.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, hostFlags } from './support/cli.ts';
import { forward } from './support/forward.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { generateDevKeyPair, readProfileTable } from '../lib/evidence/keys.ts';
import { certifyTarget } from '../lib/certify.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost, type ReferenceHostOptions } from '../hosts/reference/server.ts';

const scenarios = await loadScenarios();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function certifyReference(options: ReferenceHostOptions, requireBehavior = false): Promise<Map<string, LedgerRow>> {
  const host = await startReferenceHost({ log: () => {}, ...options });
  cleanups.push(() => host.close());
  const outcome = await certifyTarget({
    host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
    requireBehavior,
    scenarios,
  });
  if (!outcome.ok) throw new Error(outcome.reason);
  return new Map(outcome.rows.map((row) => [row.id, row]));
}

const EVAL_ROWS_ON = [
  'openwop.requirement.0081.capability-not-provided',
  'openwop.requirement.0244.unadvertised-feature-refused',
  // RFC 0244 §G refusals: each runs only where its facet is off (the maxTrials one runs on every
  // host with trials and the seams, the suite over maxTrials seeded).
  'openwop.requirement.0244.trajectory-unadvertised-refused',
  'openwop.requirement.0244.fixture-matching-unadvertised-refused',
  // Only on a host that advertises the live-shadow mode.
  'openwop.requirement.0081.live-shadow-ignores-fixtures',
  'openwop.requirement.0252.live-shadow-refused',
];
/** Rows out of reach by the reference host's own choices: modes it does not advertise, no diffRef, no fixtureErrors. */
const REFERENCE_CHOICES = [
  'openwop.requirement.0081.mode-adversarial-runs',
  'openwop.requirement.0081.mode-live-shadow-runs',
  'openwop.requirement.0081.regression-diff-ref',
  // Only on a host that advertises fixtureErrors (RFC 0245): the honest variant fixture-errors-advertised.
  'openwop.requirement.0252.failed-calls-derived-as-errors',
];

describe('the reference host', () => {
  it('passes every applicable row, with none blocked', async () => {
    const rows = await certifyReference({});
    const notPassed = [...rows.values()].filter((row) => row.result !== 'executed-pass');
    expect(notPassed.map((row) => `${row.id}: ${row.detail}`).sort()).toEqual(
      [...EVAL_ROWS_ON, ...REFERENCE_CHOICES].map((id) => `${id}: ${rows.get(id)?.detail}`).sort(),
    );
    for (const row of notPassed) expect(row.result).toBe('inapplicable');
    for (const row of rows.values()) if (row.result === 'executed-pass') expect(row.assertions).toBeGreaterThan(0);
  });

  it('with agents.evalSuite switched off: the eval rows are inapplicable and the 422 row executes and passes', async () => {
    const rows = await certifyReference({ evalSuite: false });
    expect(rows.get('openwop.requirement.0081.capability-not-provided')?.result).toBe('executed-pass');
    const hostRows = scenarios.flatMap((s) => s.legs.filter((leg) => !leg.serverFree && leg.id !== 'openwop.requirement.0081.capability-not-provided'));
    for (const leg of hostRows) {
      expect(rows.get(leg.id)?.result, leg.id).toBe('inapplicable');
      expect(rows.get(leg.id)?.detail, leg.id).toMatch(/does not advertise agents\.evalSuite/);
    }
  });

  it('with agents.evalSuite switched off under --require-behavior: the eval rows stay inapplicable (the facet is optional) and the refusal row passes', async () => {
    const rows = await certifyReference({ evalSuite: false }, true);
    expect(rows.get('openwop.requirement.0081.capability-not-provided')?.result).toBe('executed-pass');
    expect([...rows.values()].filter((row) => row.result === 'executed-fail' || row.result === 'blocked')).toEqual([]);
    const hostRows = scenarios.flatMap((s) => s.legs.filter((leg) => !leg.serverFree && leg.id !== 'openwop.requirement.0081.capability-not-provided'));
    for (const leg of hostRows) expect(rows.get(leg.id)?.result, leg.id).toBe('inapplicable');
  });

  it('with the trials facet switched off: a suite using trials is refused 400 naming trials.count', async () => {
    const rows = await certifyReference({ evalSuite: { trials: false } });
    expect(rows.get('openwop.requirement.0244.unadvertised-feature-refused')?.result).toBe('executed-pass');
    expect(rows.get('openwop.requirement.0244.trials-per-task')?.result).toBe('inapplicable');
  });

  it('with each RFC 0244 §G facet switched off (or maxTrials lowered, or live-shadow advertised): its row executes and passes', async () => {
    // One certification per configuration, each row it brings into play read from it.
    const cases: Array<[ReferenceHostOptions, string[]]> = [
      [{ evalSuite: { trajectory: false } }, ['openwop.requirement.0244.trajectory-unadvertised-refused']],
      [{ evalSuite: { fixtureMatching: false, recordedFixtures: false } }, ['openwop.requirement.0244.fixture-matching-unadvertised-refused']],
      [{ evalSuite: { trials: { maxTrials: 2 } } }, ['openwop.requirement.0244.trials-over-max-refused']],
      [
        { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } },
        ['openwop.requirement.0081.live-shadow-ignores-fixtures', 'openwop.requirement.0252.live-shadow-refused'],
      ],
    ];
    for (const [options, ids] of cases) {
      const rows = await certifyReference(options);
      for (const id of ids) expect(rows.get(id)?.result, id).toBe('executed-pass');
      expect([...rows.values()].filter((row) => row.result === 'executed-fail' || row.result === 'blocked').map((row) => row.id)).toEqual([]);
    }
  });
});

/** A proxy to `target` that drops every event-stream and poll connection before answering. */
async function droppingProxy(target: string): Promise<string> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    if (/\/events(\/poll)?(\?|$)/.test(req.url ?? '')) {
      req.socket.destroy();
      return;
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  const address = server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

describe('a host that drops connections mid-run', () => {
  it('yields blocked rows and a non-zero exit, within bounded time', async () => {
    const host = await startReferenceHost({ log: () => {} });
    cleanups.push(() => host.close());
    const proxy = await droppingProxy(host.baseUrl);
    const started = Date.now();
    const { code, out } = await cli('run', '--base-url', proxy, '--api-key', host.tenants.a.apiKey, '--filter', '0244.trajectory-graded');
    expect(code).toBe(1);
    expect(out).toMatch(/^blocked +openwop\.requirement\.0244\.trajectory-graded: transport-loss: /m);
    expect(out).not.toMatch(/^executed-fail/m);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('API keys', () => {
  it('appear in no terminal output, JSON report, JUnit file or bundle (a canary key)', async () => {
    const canaryA = 'ow2k_CANARY_a_5f1d9c7e2b';
    const canaryB = 'ow2k_CANARY_b_0a8e3d6f41';
    const host = await startReferenceHost({ log: () => {}, tenants: { a: { apiKey: canaryA }, b: { apiKey: canaryB } } });
    cleanups.push(() => host.close());
    const dir = mkdtempSync(join(tmpdir(), 'owec-canary-'));
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    const proxy = await droppingProxy(host.baseUrl);
    // Against the host itself (every row, and a bundle), and through the dropping proxy (transport
    // errors, whose rows are all blocked, so no bundle can be cut).
    const outputs: string[] = [];
    for (const [name, base] of [
      ['direct', host.baseUrl],
      ['dropping', proxy],
    ] as const) {
      const bundle =
        name === 'direct'
          ? [
              '--certify',
              join(dir, 'direct.bundle.json'),
              '--signing-key',
              join(dir, 'host.pem'),
              '--signing-key-id',
              'canary-host',
              '--host-build',
              'commit:0123456789abcdef',
            ]
          : ['--filter', '0244.trials'];
      const { out, err } = await cli(
        'run',
        '--base-url',
        base,
        '--api-key',
        canaryA,
        '--tenant-b-api-key',
        canaryB,
        '--report-json',
        join(dir, `${name}.json`),
        '--junit',
        join(dir, `${name}.xml`),
        ...bundle,
      );
      outputs.push(out, err, readFileSync(join(dir, `${name}.json`), 'utf8'), readFileSync(join(dir, `${name}.xml`), 'utf8'));
    }
    outputs.push(readFileSync(join(dir, 'direct.bundle.json'), 'utf8'));
    expect(outputs.join('\n')).toMatch(/transport-loss/);
    for (const text of outputs) {
      expect(text).not.toContain(canaryA);
      expect(text).not.toContain(canaryB);
      expect(text).not.toContain('CANARY');
    }
  });
});

describe('verify on the command line', () => {
  it('exits 0 verified and certified with the host key or its discovery, 1 when tampered, 5 without a key, 3 for a non-bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'owec-verify-'));
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    writeFileSync(join(dir, 'host.pub.pem'), key.publicKeyPem);
    const host = await startReferenceHost({ log: () => {}, signingKey: key.privateKeyPem, signingKeyId: 'verify-test-key' });
    cleanups.push(() => host.close());
    const bundlePath = join(dir, 'bundle.json');
    const run = await cli(
      'run',
      ...hostFlags(host),
      '--certify',
      bundlePath,
      '--signing-key',
      join(dir, 'host.pem'),
      '--signing-key-id',
      'verify-test-key',
      '--host-build',
      'commit:abc123',
    );
    expect(run.code).toBe(0);
    expect((await cli('verify', bundlePath, '--host-key', join(dir, 'host.pub.pem'))).code).toBe(0);
    expect((await cli('verify', bundlePath, '--discovery', host.baseUrl)).code).toBe(0);
    const unverified = await cli('verify', bundlePath);
    expect(unverified.code).toBe(5);
    expect(unverified.out).toMatch(/^authenticity: unverified /m);
    // The reference host claims every eval profile, and certifies each.
    expect(unverified.out).toContain(
      `\neval verdict: unverified (no host key was given, so the signature was not checked): certified: ${readProfileTable()
        .profiles.map((p) => p.id)
        .join(', ')}\n`,
    );

    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    bundle.results.totals.executedPass += 1;
    bundle.results.requirements[0].result = 'executed-fail';
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(bundle));
    const tampered = await cli('verify', join(dir, 'tampered.json'), '--host-key', join(dir, 'host.pub.pem'));
    expect(tampered.code).toBe(1);
    expect(tampered.out).toMatch(/^rejected \(upstream rule\): totals-mismatch: /m);
    expect(tampered.out).toMatch(/^rejected \(upstream rule\): witness-digest: /m);

    writeFileSync(join(dir, 'garbage.json'), '{"bundleVersion": ');
    expect((await cli('verify', join(dir, 'garbage.json'))).code).toBe(3);
    expect((await cli('verify', join(dir, 'missing.json'))).code).toBe(3);
  });
});
