// `run --certify` and `verify` on the same bundle (docs/auditing.md "Verifying a bundle"): a filtered run of
// the reference host is cut, signed, and certifies nothing (exit 4); `run` prints the very verdict
// line `verify` prints; and the bundle claims the upstream profiles the host's discovery derives,
// then the eval profiles, each denied by an id the filter left out.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { claimedProfilesFromDiscovery } from '../lib/evidence/derivation.ts';
import { certificatePath } from '../lib/evidence/eval-certificate.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { thisHarness } from '../lib/evidence/harness.ts';
import { cli, hostFlags, signingFlags } from './support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-verify-run-'));
const KEY_ID = 'verify-run-key';
const key = generateDevKeyPair();
writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
writeFileSync(join(dir, 'host.pub.pem'), key.publicKeyPem);
const bundlePath = join(dir, 'memory.bundle.json');

let host: Awaited<ReturnType<typeof startReferenceHost>>;
let run: { code: number; out: string; err: string };

beforeAll(async () => {
  host = await startReferenceHost({ log: () => {}, signingKey: key.privateKeyPem, signingKeyId: KEY_ID });
  run = await cli('run', ...hostFlags(host), '--filter', 'memory', '--certify', bundlePath, ...signingFlags(join(dir, 'host.pem'), KEY_ID));
});

afterAll(async () => {
  await host?.close();
});

describe('a filtered run --certify', () => {
  it('is signed and verified, and run prints the verdict verify prints: nothing certified, exit 4', async () => {
    expect(run.code, run.err).toBe(4);
    const line = (out: string, prefix: string) => out.split('\n').find((l) => l.startsWith(prefix));
    const runVerdict = line(run.out, 'eval verdict: ');
    expect(runVerdict).toMatch(
      /^eval verdict: nothing certified; not certified: openwop-eval-suite-core \(openwop\.requirement\.0081\.eval-run-events: no row: a filtered or partial run certifies nothing it did not run and \d+ more\), /,
    );
    // The one row the filter kept witnesses trials, which the other rows still deny.
    expect(runVerdict).toMatch(/openwop-eval-trials \(openwop\.requirement\.0244\.trials-per-task: no row/);
    expect(line(run.out, 'authenticity: ')).toBe(`authenticity: verified (the host signature of key ${KEY_ID} holds under the supplied key)`);
    expect(run.out).not.toMatch(/^verify: /m);

    for (const keyArgs of [
      ['--host-key', join(dir, 'host.pub.pem')],
      ['--discovery', host.baseUrl],
    ]) {
      const verified = await cli('verify', bundlePath, ...keyArgs);
      expect(verified.code, verified.out + verified.err).toBe(4);
      expect(line(verified.out, 'eval verdict: ')).toBe(runVerdict);
      expect(line(verified.out, 'authenticity: ')).toBe(line(run.out, 'authenticity: '));
    }
  });

  it('claims the upstream profiles the host discovery derives, none certified; the eval profiles are in the eval certificate', async () => {
    const harness = await thisHarness();
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    const upstream = claimedProfilesFromDiscovery(bundle.discovery.document, 2);
    expect(bundle.claimedProfiles).toEqual(upstream);
    expect(upstream.map((p) => p.id)).toContain('openwop-discovery-core');
    const certificate = JSON.parse(readFileSync(certificatePath(bundlePath), 'utf8'));
    expect(certificate.profiles.map((p: { id: string }) => p.id)).toEqual(harness.profiles.profiles.map((p) => p.id));
    expect(certificate.profiles.every((p: { certified: boolean }) => p.certified === false)).toBe(true);
    // memory-isolated, the one row kept, witnesses trials once.
    expect(certificate.profiles.find((p: { id: string }) => p.id === 'openwop-eval-trials').witnessCount).toBe(1);
    expect(certificate.seed).toMatch(/^[0-9a-f]{16,64}$/);
    expect(bundle.suite).not.toHaveProperty('seed');
  });

  it('verify --discovery of a host that does not publish the signing key: an input problem, exit 2', async () => {
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    bundle.signature.keyId = 'a-key-nobody-publishes';
    writeFileSync(join(dir, 'other-key.json'), JSON.stringify(bundle));
    const { code, out, err } = await cli('verify', join(dir, 'other-key.json'), '--discovery', host.baseUrl);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe('openwop-eval-conformance: --discovery: the host publishes no signing key "a-key-nobody-publishes"\n');
  });

  it('a tampered copy: verify lists the rejection, then the verdict with its reasons', async () => {
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
    bundle.results.totals.executedPass += 1;
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(bundle));
    const { code, out } = await cli('verify', join(dir, 'tampered.json'), '--host-key', join(dir, 'host.pub.pem'));
    expect(code).toBe(1);
    expect(out).toMatch(/^rejected \(upstream rule\): totals-mismatch: results\.totals\.executedPass is \d+, but \d+ row\(s\) are executed-pass$/m);
    expect(out).toMatch(/^eval verdict: nothing certified: the bundle is rejected, and a rejected bundle certifies nothing$/m);
  });
});
