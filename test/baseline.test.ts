// `run --expected-failures FILE` (docs/certifying.md "Expected failures in CI"): a listed executed-fail is
// tolerated, a listed pass is a stale entry that fails the run, a blocked row is never excused,
// a bad file is one line and exit 2 before any leg, and the rows, JUnit file and bundle still
// record what happened.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { forward } from './support/forward.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-baseline-'));
const SHAPE = 'openwop.requirement.0081.suite-shape';
const SERVED = 'openwop.requirement.0081.summary-served';

let files = 0;
/** Writes `content` (JSON unless a string) to a fresh file and returns its path. */
function baselineFile(content: unknown): string {
  files += 1;
  const path = join(dir, `baseline-${files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** The reference host behind a proxy that refuses its eval summaries, so the summary row fails. */
async function hostFailingSummaries(): Promise<{ url: string; apiKey: string; tenantBApiKey: string }> {
  const host = await startReferenceHost({ log: () => {} });
  cleanups.push(() => host.close());
  const upstream = new URL(host.baseUrl);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!/\/eval-summary(\?|$)/.test(req.url ?? '')) return forward(upstream, req, res);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"error":"unauthenticated","message":"no summaries today"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey };
}

describe('a bad expected-failures file', () => {
  const entry = { id: SHAPE, reason: 'a reason' };
  const cases: Array<[string, () => string, RegExp]> = [
    ['a missing file', () => join(dir, 'nope.json'), /nope\.json: cannot read it \(ENOENT\)/],
    ['a file that is not JSON', () => baselineFile('{"expectedFailures": ['), /: not JSON \(/],
    ['a document without expectedFailures', () => baselineFile({}), /: not an expected-failures file: \/ must have required property 'expectedFailures'/],
    ['an array instead of an object', () => baselineFile([entry]), /: not an expected-failures file: \/ must be object/],
    ['an entry without a reason', () => baselineFile({ expectedFailures: [{ id: SHAPE }] }), /\/expectedFailures\/0 must have required property 'reason'/],
    [
      'an empty reason',
      () => baselineFile({ expectedFailures: [{ id: SHAPE, reason: '' }] }),
      /\/expectedFailures\/0\/reason must NOT have fewer than 1 characters/,
    ],
    ['a blank reason', () => baselineFile({ expectedFailures: [{ id: SHAPE, reason: '   ' }] }), /\/expectedFailures\/0\/reason must match pattern/],
    [
      'an entry with a member of its own',
      () => baselineFile({ expectedFailures: [{ ...entry, until: '2027' }] }),
      /\/expectedFailures\/0 must NOT have additional properties \(until\)/,
    ],
    ['an id listed twice', () => baselineFile({ expectedFailures: [entry, entry] }), new RegExp(`${SHAPE.replace(/\./g, '\\.')} is listed twice`)],
    [
      'an id the harness does not know',
      () => baselineFile({ expectedFailures: [{ id: 'openwop.requirement.0081.no-such-row', reason: 'r' }] }),
      /openwop\.requirement\.0081\.no-such-row is not a requirement id of this harness \(run --list names them\)/,
    ],
  ];
  for (const [what, path, message] of cases) {
    it(`(${what}) is a usage error: one line naming the file and the problem, exit 2, no leg run`, async () => {
      const file = path();
      const { code, out, err } = await cli('run', '--offline', '--expected-failures', file);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(message);
      expect(err).toContain(`--expected-failures ${file}`);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
      expect(err).toMatch(/\(see --help\)\n$/);
    });
  }
});

describe('an expected-failures file', () => {
  it('with an id that now passes: a stale entry that fails the run, in the terminal and the JSON report', async () => {
    const file = baselineFile({ expectedFailures: [{ id: SHAPE, reason: 'was broken once' }] });
    const report = join(dir, 'stale.json');
    const { code, out } = await cli('run', '--offline', '--filter', '0081.suite-shape', '--expected-failures', file, '--report-json', report);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^executed-pass +${SHAPE.replace(/\./g, '\\.')} `, 'm'));
    expect(out).toMatch(/^stale entry +openwop\.requirement\.0081\.suite-shape: listed in .* as an expected failure but it passed; remove it from the list$/m);
    expect(out).toMatch(/^baseline: 0 expected failure\(s\) tolerated, 1 stale entry\(ies\), 0 not applied$/m);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { baseline: unknown; totals: { executedPass: number } };
    expect(written.baseline).toEqual({
      file,
      expectedFailures: [],
      stale: [{ id: SHAPE, reason: 'was broken once' }],
      notApplied: [],
      excused: [],
      unlisted: [],
    });
    expect(written.totals.executedPass).toBe(1);
  });

  it('with an id filtered out of the run: not applied, and the run passes', async () => {
    const file = baselineFile({ expectedFailures: [{ id: SERVED, reason: 'r' }] });
    const { code, out } = await cli('run', '--offline', '--filter', '0081.suite-shape', '--expected-failures', file);
    expect(code).toBe(0);
    expect(out).toMatch(/^not applied +openwop\.requirement\.0081\.summary-served: listed in .*, but the row is not run$/m);
  });

  it('tolerates a listed executed-fail (exit 0; 4 with --certify, as a filtered run certifies nothing) while the rows, the JUnit file and the bundle record the failure', async () => {
    const host = await hostFailingSummaries();
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    const [report, junit, bundle] = [join(dir, 'tolerated.json'), join(dir, 'tolerated.xml'), join(dir, 'tolerated.bundle.json')];
    // The summary rows fail on this host; the server-free suite-shape row passes, so the bundle has assertions.
    const args = [
      'run',
      '--base-url',
      host.url,
      '--api-key',
      host.apiKey,
      '--tenant-b-api-key',
      host.tenantBApiKey,
      '--filter',
      '0081.su',
      '--report-json',
      report,
      '--junit',
      junit,
    ];
    const signed = ['--certify', bundle, '--signing-key', join(dir, 'host.pem'), '--signing-key-id', 'baseline-key', '--host-build', 'commit:abc123'];

    const without = await cli(...args);
    expect(without.code).toBe(1);
    const failing = [...without.out.matchAll(/^executed-fail (\S+):/gm)].map((m) => m[1]!);
    expect(failing).toContain(SERVED);
    expect(without.out).toMatch(new RegExp(`^executed-pass +${SHAPE.replace(/\./g, '\\.')} `, 'm'));
    const file = baselineFile({ expectedFailures: failing.map((id) => ({ id, reason: 'summaries are switched off in this build' })) });

    const tolerated = await cli(...args, '--expected-failures', file);
    expect(tolerated.code).toBe(0);
    // With --certify the filtered run certifies nothing (exit 4): the baseline excuses rows, never a certificate.
    const { code, out } = await cli(...args, ...signed, '--expected-failures', file);
    expect(code).toBe(4);
    expect(out).toMatch(/^eval verdict: nothing certified; not certified: openwop-eval-suite-core \(/m);
    expect(out).toMatch(/^executed-fail openwop\.requirement\.0081\.summary-served: /m);
    expect(out).toMatch(/^expected-fail openwop\.requirement\.0081\.summary-served: listed in .*: summaries are switched off in this build$/m);
    expect(out).toMatch(new RegExp(`^baseline: ${failing.length} expected failure\\(s\\) tolerated, 0 stale`, 'm'));
    const written = JSON.parse(readFileSync(report, 'utf8')) as {
      baseline: { expectedFailures: Array<{ id: string }> };
      rows: Array<{ id: string; result: string }>;
    };
    expect(written.baseline.expectedFailures.map((e) => e.id)).toEqual(failing);
    expect(written.rows.find((row) => row.id === SERVED)?.result).toBe('executed-fail');
    // In JUnit a tolerated failure is a skip of type expected-failure, naming the list and why, never a <failure>.
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(
      /name="openwop\.requirement\.0081\.summary-served: [^"]*"[^>]*>\s*<skipped type="expected-failure" message="expected failure, listed in [^"]*: summaries are switched off in this build; failed: /,
    );
    expect(xml).not.toMatch(/<failure/);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="0"[^>]*skipped="${failing.length}"`));
    const signedBundle = JSON.parse(readFileSync(bundle, 'utf8')) as { results: { requirements: Array<{ id: string; result: string }> } };
    expect(signedBundle.results.requirements.find((row) => row.id === SERVED)?.result).toBe('executed-fail');
    expect(Object.keys(signedBundle)).not.toContain('baseline');
    expect(JSON.stringify(signedBundle)).not.toMatch(/expectedFailures|switched off in this build/);
  });

  it('never excuses a blocked row: it stays blocked and the run fails', async () => {
    const file = baselineFile({ expectedFailures: [{ id: SERVED, reason: 'r' }] });
    const { code, out } = await cli('run', '--filter', '0081.summary-served', '--run-deadline', '1', '--expected-failures', file);
    expect(code).toBe(1);
    expect(out).toMatch(/^blocked +openwop\.requirement\.0081\.summary-served: /m);
    expect(out).toMatch(/^not applied +openwop\.requirement\.0081\.summary-served: listed in .*, but the row is blocked$/m);
  });
});

describe('an expected-failures entry per rule (id/rule)', () => {
  const SCOPED = 'openwop.requirement.0081.summary-tenant-scoped';
  /** The known-bad host `name` of the catalogue (hosts/known-bad/), started for one test. */
  async function knownBad(name: string): Promise<string[]> {
    const entry = KNOWN_BAD_HOSTS.find((candidate) => candidate.name === name)!;
    const host = await startReferenceHost({ ...entry.options, log: () => {} });
    cleanups.push(() => host.close());
    return ['--base-url', host.baseUrl, '--api-key', host.tenants.a.apiKey, '--tenant-b-api-key', host.tenants.b.apiKey, '--filter', 'tenant-scoped'];
  }

  it("names a rule the leg declares, or is a usage error naming the leg's rules", async () => {
    const { code, err } = await cli(
      'run',
      '--offline',
      '--expected-failures',
      baselineFile({ expectedFailures: [{ id: `${SCOPED}/no-such-rule`, reason: 'r' }] }),
    );
    expect(code).toBe(2);
    expect(err).toMatch(
      /summary-tenant-scoped\/no-such-rule: openwop\.requirement\.0081\.summary-tenant-scoped has no rule no-such-rule \(its rules: not-served, refused-like-unknown, refusal-tells-nothing; /,
    );
  });

  it('is refused beside its whole id', async () => {
    const file = baselineFile({
      expectedFailures: [
        { id: SCOPED, reason: 'r' },
        { id: `${SCOPED}/not-served`, reason: 'r' },
      ],
    });
    const { code, err } = await cli('run', '--offline', '--expected-failures', file);
    expect(code).toBe(2);
    expect(err).toMatch(/lists both openwop\.requirement\.0081\.summary-tenant-scoped and openwop\.requirement\.0081\.summary-tenant-scoped\/not-served/);
  });

  it('excuses the row when it names the one rule that failed (foreign-summary-refused-differently), and keeps the other rule gating', async () => {
    const flags = await knownBad('foreign-summary-refused-differently');
    const junit = join(dir, 'rule.xml');
    const excused = await cli(
      'run',
      ...flags,
      '--junit',
      junit,
      '--expected-failures',
      // This host's refusal also tells more than an unknown id's (refusal-tells-nothing): both rules
      // listed; the tenant probe of the summary route sees the same refusal.
      baselineFile({
        expectedFailures: [
          { id: `${SCOPED}/refused-like-unknown`, reason: 'refusal codes differ until 2.1' },
          { id: `${SCOPED}/refusal-tells-nothing`, reason: 'refusal codes differ until 2.1' },
          { id: 'openwop.requirement.0244.run-routes-tenant-scoped/foreign-summary', reason: 'refusal codes differ until 2.1' },
        ],
      }),
    );
    expect(excused.out).toMatch(/^executed-fail openwop\.requirement\.0081\.summary-tenant-scoped: /m);
    expect(excused.out).toMatch(
      /^expected-fail openwop\.requirement\.0081\.summary-tenant-scoped\/refused-like-unknown: listed in .*: refusal codes differ until 2\.1$/m,
    );
    expect(excused.code).toBe(0);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<skipped type="expected-failure" message="expected failure, listed in [^"]*refused-like-unknown: refusal codes differ until 2\.1/,
    );

    // The other rule listed instead: it did not fail, so its entry is stale, and the failure is not excused.
    const other = await cli('run', ...flags, '--expected-failures', baselineFile({ expectedFailures: [{ id: `${SCOPED}/not-served`, reason: 'r' }] }));
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/^stale entry +openwop\.requirement\.0081\.summary-tenant-scoped\/not-served: .*it passed; remove it from the list$/m);
    expect(other.out).toMatch(
      /^not excused +openwop\.requirement\.0081\.summary-tenant-scoped: listed by rule in .*, but it also failed refused-like-unknown\b/m,
    );
  });

  it('does not excuse a row that failed a second rule the list does not name (foreign-summary-served)', async () => {
    const flags = await knownBad('foreign-summary-served');
    const report = join(dir, 'rule-both.json');
    const { code, out } = await cli(
      'run',
      ...flags,
      '--report-json',
      report,
      '--expected-failures',
      baselineFile({ expectedFailures: [{ id: `${SCOPED}/refused-like-unknown`, reason: 'r' }] }),
    );
    expect(code).toBe(1);
    expect(out).toMatch(/^not excused +openwop\.requirement\.0081\.summary-tenant-scoped: .*also failed not-served, /m);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { baseline: { excused: string[]; unlisted: unknown[] } };
    expect(written.baseline.excused).toEqual([]);
    expect(written.baseline.unlisted).toEqual([{ id: SCOPED, rules: expect.arrayContaining(['not-served']) }]);
    expect((written.baseline.unlisted[0] as { rules: string[] }).rules).not.toContain('refused-like-unknown');
  });

  it('a rule listed for an id that passed is stale (the reference host)', async () => {
    const host = await startReferenceHost({ log: () => {} });
    cleanups.push(() => host.close());
    const file = baselineFile({ expectedFailures: [{ id: `${SCOPED}/not-served`, reason: 'r' }] });
    const { code, out } = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.tenants.a.apiKey,
      '--tenant-b-api-key',
      host.tenants.b.apiKey,
      '--filter',
      'tenant-scoped',
      '--expected-failures',
      file,
    );
    expect(code).toBe(1);
    expect(out).toMatch(/^stale entry +openwop\.requirement\.0081\.summary-tenant-scoped\/not-served: /m);
  });
});
