// The vendor path end to end, as docs/certifying.md "Certify it, as a vendor would" writes it:
// its two shell blocks run as written (the command's name resolved to this checkout, a free port
// for 3838): `host` publishing a key the vendor holds, the documented certify command with
// `--require-behavior`, and `verify` against the key the host publishes. And the other side: a
// bundle no published key verifies is called "self-attested" wherever its verdict appears.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { cli, hostFlags } from './support/cli.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const COMMAND = `node ${join(ROOT, 'bin/openwop-eval-conformance.mjs')}`;

/** The shell blocks of the section, in order. */
function blocksOf(section: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/certifying.md'), 'utf8');
  const start = doc.indexOf(`### ${section}`);
  expect(start, `docs/certifying.md has a section "${section}"`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n#', start + 4);
  return [...doc.slice(start, end === -1 ? undefined : end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(script: string, cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('docs/certifying.md, the vendor practice, run as written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owec-vendor-'));
  let host: ChildProcess | undefined;
  afterAll(() => {
    host?.kill('SIGTERM');
  });

  it('the practice host publishes the vendor key; the certify command with --require-behavior and verify --discovery exit 0, certified', {
    timeout: 180_000,
  }, async () => {
    const [hostBlock, certifyBlock] = blocksOf('Certify it, as a vendor would');
    expect(hostBlock).toBeDefined();
    expect(certifyBlock).toMatch(/--require-behavior/);
    const port = String(await freePort());
    const localise = (block: string) => block.replaceAll('npx openwop-eval-conformance', COMMAND).replaceAll('3838', port);

    const started = spawn('bash', ['-e', '-c', `exec ${localise(hostBlock!).trim()}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    host = started;
    let hostOut = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the practice host did not start: ${hostOut}`)), 60_000);
      started.stdout!.on('data', (chunk) => {
        hostOut += chunk;
        if (hostOut.includes('database:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.on('exit', (code) => reject(new Error(`the practice host exited ${code}: ${hostOut}`)));
    });
    expect(hostOut).toMatch(/^signing key written to host\.pem /m);
    expect(hostOut).toMatch(/^publishes signing key host-key-1 in its discovery signingKeys$/m);

    const { code, out, err } = await run(localise(certifyBlock!), dir);
    expect(code, `${out}\n${err}`).toBe(0);
    // The run's verdict and verify's, unqualified: a key the host publishes verifies the bundle.
    expect(out).toMatch(/^upstream verdict \(official bundle-v3 rules\): no rejection; /m);
    const verdicts = out.split('\n').filter((line) => line.startsWith('eval verdict: '));
    expect(verdicts).toHaveLength(2);
    for (const line of verdicts) expect(line).toMatch(/^eval verdict: certified: openwop-eval-suite-core, /);
    expect(out).toMatch(/^key: from the discovery document of http:\/\/127\.0\.0\.1:\d+, signingKeys host-key-1$/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.verdict.status).toBe('certified');
    expect(report.verdict).not.toHaveProperty('attestation');
  });
});

describe('a bundle no published key verifies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owec-self-attested-'));
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
  });

  it('is never called certified without "self-attested": terminal, JSON, JUnit, HTML banner and Markdown summary', { timeout: 180_000 }, async () => {
    // The host publishes a fresh key of its own; the run signs with another, which no one publishes.
    const host = await startReferenceHost({ log: () => {} });
    close = () => host.close();
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'vendor.pem'), key.privateKeyPem);
    const files = { json: join(dir, 'r.json'), junit: join(dir, 'j.xml'), html: join(dir, 'r.html'), summary: join(dir, 's.md') };
    const { code, out, err } = await cli(
      'run',
      ...hostFlags(host),
      '--certify',
      join(dir, 'b.json'),
      '--signing-key',
      join(dir, 'vendor.pem'),
      '--signing-key-id',
      'unpublished',
      '--host-build',
      'commit:abc',
      '--report-json',
      files.json,
      '--junit',
      files.junit,
      '--html',
      files.html,
      '--summary',
      files.summary,
    );
    expect(code, err).toBe(0);
    expect(err).toMatch(/warning: the host's discovery signingKeys publish no key "unpublished"/);
    const qualified = "self-attested (the host's discovery does not publish the signing key): certified: openwop-eval-suite-core, ";
    expect(out).toContain(`\neval verdict: ${qualified}`);
    expect(out).not.toMatch(/^eval verdict: certified/m);
    const report = JSON.parse(readFileSync(files.json, 'utf8'));
    expect(report.verdict).toMatchObject({ status: 'certified', attestation: 'self-attested' });
    expect(report.verdict.text.startsWith(qualified)).toBe(true);
    expect(readFileSync(files.junit, 'utf8')).toContain(`name="verdict" value="${qualified.replace(/'/g, '&apos;')}`);
    const html = readFileSync(files.html, 'utf8');
    expect(html).toMatch(/id="verdict">certified: 6 of 6 profiles, self-attested<div class="verdict-text">self-attested /);
    expect(readFileSync(files.summary, 'utf8')).toMatch(/^## OpenWOP eval conformance: certified: 6 of 6 profiles, self-attested$/m);
  });
});
