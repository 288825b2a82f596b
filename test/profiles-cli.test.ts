// The eval verdict end to end (docs/auditing.md "Eval profiles", "Verifying a bundle", "Exit codes"):
// - a host that advertises no agents.evalSuite: `run --certify` and `verify` say "nothing
//   certified", exit 4, never "certified";
// - the keys `verify` reads from each discovery form: a saved file (a retired key included), a
//   live host, the bundle's own embedded discovery (self-attested), a raw base64url key;
// - the signing key checked before the run: a key id the host does not publish, or a published
//   key that is not the public half of --signing-key, warns in one line, and under
//   --require-behavior refuses (exit 2) before any request but discovery.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair, rawPublicKeyB64url } from '../lib/evidence/keys.ts';
import { cli, hostFlags, signingFlags } from './support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-profiles-cli-'));
const KEY = generateDevKeyPair();
const OTHER = generateDevKeyPair();
writeFileSync(join(dir, 'host.pem'), KEY.privateKeyPem);
writeFileSync(join(dir, 'other.pem'), OTHER.privateKeyPem);
writeFileSync(join(dir, 'host.pub.pem'), KEY.publicKeyPem);
const KEY_ID = 'profiles-cli-key';

let host: Awaited<ReturnType<typeof startReferenceHost>>;
let noEval: { code: number; out: string; err: string };
const bundlePath = join(dir, 'no-eval.bundle.json');

beforeAll(async () => {
  host = await startReferenceHost({ log: () => {}, signingKey: KEY.privateKeyPem, signingKeyId: KEY_ID, evalSuite: false });
  noEval = await cli('run', ...hostFlags(host), '--require-behavior', '--certify', bundlePath, ...signingFlags(join(dir, 'host.pem'), KEY_ID));
});

afterAll(async () => {
  await host?.close();
});

const NOTHING = 'eval verdict: nothing certified: the host claims no eval profile (its discovery does not advertise agents.evalSuite)';

describe('a host that advertises no agents.evalSuite', () => {
  it('run --certify: every row passes or is inapplicable, and the verdict is nothing certified, exit 4', () => {
    expect(noEval.code, noEval.err).toBe(4);
    expect(noEval.out).toMatch(/ 0 executed-fail, 0 skipped, \d+ inapplicable, 0 blocked$/m);
    expect(noEval.out).toContain(`\n${NOTHING}\n`);
    expect(noEval.out).not.toMatch(/^eval verdict: certified/m);
    const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as { claimedProfiles: { id: string; certified: boolean }[] };
    expect(bundle.claimedProfiles.filter((p) => p.id.startsWith('openwop-eval-'))).toEqual([]);
    expect(bundle.claimedProfiles.every((p) => !p.certified)).toBe(true);
  });

  it('verify: authentic, and nothing certified, exit 4', async () => {
    const verified = await cli('verify', bundlePath, '--host-key', join(dir, 'host.pub.pem'));
    expect(verified.code, verified.out).toBe(4);
    expect(verified.out).toMatch(/^authenticity: verified /m);
    expect(verified.out).toContain(`\n${NOTHING}\n`);
  });
});

describe('verify reads the host key from each discovery form', () => {
  it('a live host, as --discovery URL', async () => {
    const { code, out } = await cli('verify', bundlePath, '--discovery', host.baseUrl);
    expect(code, out).toBe(4);
    expect(out).toMatch(new RegExp(`^key: from the discovery document of ${host.baseUrl.replace(/[.]/g, '\\.')}, signingKeys ${KEY_ID}$`, 'm'));
    expect(out).toMatch(/^authenticity: verified /m);
  });

  it('a saved discovery document, its key listed as retired beside a newer one', async () => {
    const document = {
      protocolVersions: ['2.0'],
      preferredVersion: '2.0',
      signingKeys: [
        { keyId: 'newer', alg: 'ed25519', publicKey: rawPublicKeyB64url(OTHER.publicKeyPem), use: 'certification-bundle' },
        { keyId: KEY_ID, alg: 'ed25519', publicKey: rawPublicKeyB64url(KEY.publicKeyPem), use: 'certification-bundle', retiredAt: '2026-11-30T00:00:00Z' },
      ],
    };
    const saved = join(dir, 'discovery.json');
    writeFileSync(saved, JSON.stringify(document));
    const { code, out } = await cli('verify', bundlePath, '--discovery', saved);
    expect(code, out).toBe(4);
    expect(out).toContain(
      `key: from the saved discovery document ${saved}, signingKeys ${KEY_ID} (retired at 2026-11-30T00:00:00Z; a retired key still verifies what it signed)`,
    );
    expect(out).toMatch(/^authenticity: verified /m);
    // The wrong key under the right id is a rejection, not a pass.
    document.signingKeys[1]!.publicKey = rawPublicKeyB64url(OTHER.publicKeyPem);
    writeFileSync(saved, JSON.stringify(document));
    const wrong = await cli('verify', bundlePath, '--discovery', saved);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/^rejected \(upstream rule\): signature-invalid: /m);
  });

  it("the bundle's own embedded discovery, marked self-attested", async () => {
    const { code, out } = await cli('verify', bundlePath, '--bundle-discovery');
    expect(code, out).toBe(4);
    expect(out).toMatch(/^key: from the bundle's embedded discovery document \(self-attested\), signingKeys profiles-cli-key$/m);
    expect(out).toMatch(/^note: the key is self-attested: /m);
    expect(out).toMatch(/^authenticity: verified /m);
  });

  it('a raw base64url key as published, and a malformed one as an input problem', async () => {
    const { code, out } = await cli('verify', bundlePath, '--host-key', rawPublicKeyB64url(KEY.publicKeyPem));
    expect(code, out).toBe(4);
    expect(out).toMatch(/^key: from the raw key given with --host-key$/m);
    expect(out).toMatch(/^authenticity: verified /m);
    const bad = await cli('verify', bundlePath, '--host-key', `${'_'.repeat(42)}_`);
    expect(bad.code).toBe(2);
    const several = await cli('verify', bundlePath, '--bundle-discovery', '--discovery', host.baseUrl);
    expect(several.code).toBe(2);
    expect(several.err).toMatch(/give one of --host-key, --discovery and --bundle-discovery, not several/);
  });
});

describe('the signing key, checked before the run', () => {
  let fake: Server;
  let fakeUrl: string;
  const seen: string[] = [];
  const document = {
    protocolVersions: ['2.0'],
    preferredVersion: '2.0',
    implementation: { name: 'fake-host', version: '1.0.0' },
    signingKeys: [{ keyId: KEY_ID, alg: 'ed25519', publicKey: rawPublicKeyB64url(KEY.publicKeyPem) }],
    agents: { evalSuite: { modes: ['golden'] } },
  };

  beforeAll(async () => {
    // A host that answers discovery and records every request: the refusal must come before any other.
    fake = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(request.url === '/.well-known/openwop' ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.url === '/.well-known/openwop' ? document : { error: { code: 'not_found', message: 'no' } }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => fake.close(resolve));
  });

  const certifyAgainst = (key: string, keyId: string, ...more: string[]) =>
    cli(
      'run',
      '--base-url',
      fakeUrl,
      '--api-key',
      'k',
      '--certify',
      join(dir, 'fake.json'),
      '--signing-key',
      join(dir, key),
      '--signing-key-id',
      keyId,
      '--host-build',
      'commit:abc',
      '--filter',
      'summary-served',
      ...more,
    );

  for (const [what, key, keyId, message] of [
    [
      'a key id the host does not publish',
      'host.pem',
      'unpublished-key',
      /the host's discovery signingKeys publish no key "unpublished-key" \(--signing-key-id\)/,
    ],
    [
      'a published key that is not the public half of --signing-key',
      'other.pem',
      KEY_ID,
      /the key the host publishes as "profiles-cli-key" is not the public half of --signing-key/,
    ],
  ] as const) {
    it(`${what}: a one-line warning, and under --require-behavior exit 2 after discovery alone`, async () => {
      seen.length = 0;
      const warned = await certifyAgainst(key, keyId);
      const warnings = warned.err.split('\n').filter((line) => line.includes('warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(message);
      expect(seen.length).toBeGreaterThan(1);

      seen.length = 0;
      const refused = await certifyAgainst(key, keyId, '--require-behavior');
      expect(refused.code).toBe(2);
      expect(refused.err.trim().split('\n')).toHaveLength(1);
      expect(refused.err).toMatch(message);
      expect(refused.err).toMatch(/under --require-behavior the run does not start/);
      expect(seen).toEqual(['GET /.well-known/openwop']);
    });
  }

  it('the published public half of --signing-key: no warning', async () => {
    const run = await certifyAgainst('host.pem', KEY_ID, '--require-behavior');
    expect(run.err).not.toMatch(/warning:|does not start/);
  });
});
