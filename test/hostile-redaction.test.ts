// Redaction at one door (lib/redact.ts): a host that quotes back, in every error answer, the
// Authorization header, the body and the query it received gets none of the run's secrets into
// any output — terminal, JSON report, JUnit, HTML report, Markdown summary, the signed bundle, the archive —
// and the bundle still verifies.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { cli, cliWith, signingFlags } from './support/cli.ts';
import type { EmbeddedHostFactory } from '../lib/certify.ts';
import { createClient, TransportError } from '../lib/client/index.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { pemSecrets, Redactor } from '../lib/redact.ts';
import { startEchoingHost } from './support/echoing-host.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Every form a canary could take in a file: as sent, percent-encoded, in a JSON string. */
function canaryForms(canary: string): string[] {
  return [...new Set([canary, encodeURIComponent(canary), JSON.stringify(canary).slice(1, -1)])];
}

describe('a host that echoes the Authorization header, the body and the query in every error answer', () => {
  it('gets no canary into the terminal, any report or the bundle, and the bundle verifies', { timeout: 120_000 }, async () => {
    const canaryA = 'ow2k_CANARY_A_3b9f17d2c4e85a60';
    const canaryB = 'ow2k_CANARY_B_8e21c05f9ad34b77';
    const host = await startEchoingHost({ tenants: { a: { apiKey: canaryA }, b: { apiKey: canaryB } } });
    cleanups.push(() => host.close());
    const dir = mkdtempSync(join(tmpdir(), 'owec-echo-'));
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    writeFileSync(join(dir, 'host.pub.pem'), key.publicKeyPem);

    const started = Date.now();
    const run = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      canaryA,
      '--tenant-b-api-key',
      canaryB,
      '--report-json',
      join(dir, 'report.json'),
      '--junit',
      join(dir, 'junit.xml'),
      '--html',
      join(dir, 'report.html'),
      '--summary',
      join(dir, 'summary.md'),
      '--certify',
      join(dir, 'bundle.json'),
      ...signingFlags(join(dir, 'host.pem'), 'echo-host'),
    );
    const wallMs = Date.now() - started;
    // The host refuses every run, so rows fail; what matters is where their reasons go.
    expect(run.code, run.err).toBe(1);
    expect(run.out).toMatch(/^executed-fail/m);
    expect(run.out).toContain('[redacted]');

    const files = readdirSync(dir).filter((name) => !name.endsWith('.pem'));
    // The generated suites fail too (every run refused), so their shrunk reproducer is beside the
    // report; with --certify the archive of every exchange is written beside the bundle, bound to it.
    expect(files.sort()).toEqual([
      'bundle.archive.har.gz',
      'bundle.archive.har.gz.sig.json',
      'bundle.eval-certificate.json',
      'bundle.json',
      'junit.xml',
      'report.html',
      'report.json',
      'report.json.repro.json',
      'summary.md',
    ]);
    const outputs: Record<string, string> = { stdout: run.out, stderr: run.err };
    for (const name of files)
      outputs[name] = name.endsWith('.gz') ? gunzipSync(readFileSync(join(dir, name))).toString('utf8') : readFileSync(join(dir, name), 'utf8');
    const secrets = [canaryA, canaryB, ...pemSecrets(key.privateKeyPem).filter((s) => s.length >= 16)];
    for (const [name, text] of Object.entries(outputs)) {
      for (const secret of secrets) for (const form of canaryForms(secret)) expect(text.includes(form), `${name} carries ${form.slice(0, 24)}…`).toBe(false);
      expect(text, name).not.toContain('CANARY');
      // Nor spelled in escapes (the echoing host's `details.spelled`), which any JSON reader decodes.
      expect(
        text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        `${name} spells a canary`,
      ).not.toContain('CANARY');
    }
    // The echo did reach the rows: the bundle quotes the refusal, with the keys taken out.
    expect(outputs['bundle.json']).toMatch(/you sent Authorization: Bearer \[redacted\]/);
    expect(outputs['report.html']).toMatch(/you sent Authorization: Bearer \[redacted\]/);
    expect(outputs['bundle.archive.har.gz']).toMatch(/you sent Authorization: Bearer \[redacted\]/);

    const verified = await cli('verify', join(dir, 'bundle.json'), '--host-key', join(dir, 'host.pub.pem'));
    expect(verified.out + verified.err).not.toContain('CANARY');
    // Authentic, but not certified: the host failed rows (verify exits 4 for that verdict).
    expect(verified.code, verified.out).toBe(4);
    expect(verified.out).toMatch(/^authenticity: verified/m);
    console.info(`echoing-host certification: ${wallMs} ms`);
  });
});

describe('a password in the base URL', () => {
  it('is a secret too: the report names the target without it', async () => {
    const host = await startReferenceHost({ log: () => {} });
    cleanups.push(() => host.close());
    const canary = 'CANARY_URL_PASSWORD_5d1e';
    const baseUrl = host.baseUrl.replace('http://', `http://auditor:${canary}@`);
    const report = join(mkdtempSync(join(tmpdir(), 'owec-userinfo-')), 'report.json');
    const run = await cli('run', '--base-url', baseUrl, '--api-key', host.tenants.a.apiKey, '--filter', '0081.suite-shape', '--report-json', report);
    expect(run.code, run.err).toBe(0);
    const text = readFileSync(report, 'utf8');
    expect((JSON.parse(text) as { target: { baseUrl: string } }).target.baseUrl).toMatch(/^http:\/\/auditor:\[redacted\]@127\.0\.0\.1:\d+$/);
    for (const output of [run.out, run.err, text]) expect(output).not.toContain(canary);
  });
});

describe('a failure of the harness itself', () => {
  it('is one line through the redactor and exit 2, never a thrown stack trace', async () => {
    // An embedded host whose start throws what it was given: the signing key's private half, on
    // a message of several lines as a stack trace would be.
    let signingKey = '';
    const failing: EmbeddedHostFactory = async (options) => {
      signingKey = String(options.signingKey);
      throw new TypeError(`cannot start with ${signingKey}\n    at start (server.ts:1:1)`);
    };
    const dir = mkdtempSync(join(tmpdir(), 'owec-harness-bug-'));
    const run = await cliWith(failing, 'run', '--certify', join(dir, 'bundle.json'));
    expect(signingKey).toContain('PRIVATE KEY');
    expect(run.code).toBe(2);
    const lines = run.err.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^openwop-eval-conformance: the harness failed \(a harness bug, not the host's fault\): TypeError: cannot start with /);
    expect(lines.filter((line) => line.includes('the harness failed'))).toHaveLength(1);
    for (const secret of pemSecrets(signingKey)) expect(run.err).not.toContain(secret);
    expect(run.err).not.toMatch(/^\s+at /m);
  });
});

describe('the redaction rule', () => {
  it('takes a long secret out wherever it occurs, in every form', () => {
    const r = new Redactor(['s3cret-key/+=x']);
    expect(r.text('a s3cret-key/+=xs3cret-key/+=x b')).toBe('a [redacted][redacted] b');
    expect(r.text(`q=${encodeURIComponent('s3cret-key/+=x')}`)).toBe('q=[redacted]');
  });

  it('takes a short secret out only where it stands as a whole token', () => {
    const r = new Redactor(['k']);
    expect(r.text('GET /.well-known/openwop')).toBe('GET /.well-known/openwop');
    expect(r.text('Authorization: Bearer k')).toBe('Authorization: Bearer [redacted]');
    expect(r.text('{"key":"k"}')).toBe('{"key":"[redacted]"}');
    expect(new Redactor(['known']).text('/.well-known/openwop')).toBe('/.well-known/openwop');
  });

  it('is the rule of the client too: a one-letter key leaves /.well-known/openwop whole in a transport error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 5_000 });
    const error = await client.request('GET', '/.well-known/openwop').then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('GET /.well-known/openwop');
    expect((error as Error).message).not.toContain('[redacted]nown');
  });

  it('takes out a secret spelled in escapes no encoder needs, and leaves every other escape', () => {
    const r = new Redactor(['ow2k_live_A7f3c91d']);
    const spelled = [...'ow2k_live_A7f3c91d'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(r.text(`{"m":"you sent ${spelled} \\u00e9 \\u0022"}`)).toBe('{"m":"you sent [redacted] \\u00e9 \\u0022"}');
    expect(r.text('{"m":"ow2k\\u005flive_A7f3c91d"}')).toBe('{"m":"[redacted]"}');
    expect(r.text('q=%6Fw2k_live%5FA7f3c91d&x=%20')).toBe('q=[redacted]&x=%20');
    // An escaped backslash before `u` is no escape; a text that spells no secret is left as it is.
    expect(r.text('\\\\u0061 \\u0061 %41')).toBe('\\\\u0061 \\u0061 %41');
  });

  it('takes out the longer of two overlapping secrets whole', () => {
    expect(new Redactor(['abcdefgh', 'abcdefgh-ijklmnop']).text('x abcdefgh-ijklmnop y')).toBe('x [redacted] y');
  });

  it('redacts a JSON value nested 100,000 deep, names and strings alike, without recursion', () => {
    let value: unknown = 'leaf sekrit-value-1';
    for (let i = 0; i < 100_000; i++) value = i % 2 ? { 'sekrit-value-1': value } : [value];
    const out = new Redactor(['sekrit-value-1']).value(value);
    let node: unknown = out;
    for (let i = 99_999; i >= 0; i--) node = i % 2 ? (node as Record<string, unknown>)['[redacted]'] : (node as unknown[])[0];
    expect(node).toBe('leaf [redacted]');
  });
});
