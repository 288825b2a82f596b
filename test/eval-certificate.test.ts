// The eval certificate beside a bundle (lib/evidence/eval-certificate.ts, docs/wire.md §12.6), as
// `verify` checks it: absent, another bundle's, altered, re-signed with other profiles, signed by
// another key, or left under a bundle altered after it was signed.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { certificatePath, certificatePayload, type EvalCertificate } from '../lib/evidence/eval-certificate.ts';
import { ed25519PrivateKey, signText } from '../lib/evidence/ed25519.ts';
import { certificateOf, DEV, file, HOST, signed, withKey } from './support/verify-fixtures.ts';

describe('verify: the eval certificate', () => {
  it("the eval certificate: absent, another bundle's, altered, re-signed with other profiles, or signed by another key", async () => {
    const bundle = signed();
    const absent = await withKey(file(bundle, false));
    expect(absent.code, absent.out).toBe(4);
    expect(absent.out).toMatch(
      /^eval verdict: nothing certified: no eval certificate \(none at .*\.eval-certificate\.json\), and the eval verdict travels in it$/m,
    );

    const other = signed({ generatedAt: '2026-12-02T10:00:00Z' });
    const foreign = await withKey(file(bundle, certificateOf(other)));
    expect(foreign.code).toBe(1);
    expect(foreign.out).toMatch(
      /^rejected \(this harness's check\): eval-certificate: the bundle's SHA-256 is [0-9a-f]{64}, the certificate names [0-9a-f]{64}: it certifies another bundle$/m,
    );
    expect(foreign.out).toMatch(/^eval verdict: nothing certified: the eval certificate does not hold for this bundle$/m);

    const altered = certificateOf(bundle);
    altered.profiles[0]!.witnessCount += 1;
    const tampered = await withKey(file(bundle, altered));
    expect(tampered.code).toBe(1);
    expect(tampered.out).toMatch(/^rejected \(this harness's check\): eval-certificate: the certificate signature does not hold under the host key$/m);
    expect(tampered.out).toMatch(/eval-certificate: openwop-eval-suite-core is stated certified true with witnessCount \d+, but the signed rows give/);

    // Re-signed with the host's own key, the certificate still cannot state what the rows do not give.
    const { sig: _sig, ...unsigned } = altered;
    const resigned = { ...unsigned, sig: signText(certificatePayload(unsigned), ed25519PrivateKey(HOST.privateKeyPem)) };
    const lying = await withKey(file(bundle, resigned as EvalCertificate));
    expect(lying.code).toBe(1);
    expect(lying.out).not.toMatch(/signature does not hold/);
    expect(lying.out).toMatch(/eval-certificate: openwop-eval-suite-core is stated certified true/);

    const byOther = await withKey(file(bundle, certificateOf(bundle, { privateKeyPem: DEV.privateKeyPem, keyId: HOST.keyId })));
    expect(byOther.code).toBe(1);
    expect(byOther.out).toMatch(/eval-certificate: the certificate signature does not hold under the host key/);
  });

  it('a bundle altered after its certificate was signed: the certificate no longer binds it', async () => {
    const bundle = signed();
    const certificate = certificateOf(bundle);
    // claimedProfiles is outside the bundle's signature, so only the certificate's digest sees this.
    bundle.claimedProfiles[0]!.witnessCount = 0;
    bundle.generatedAt = '2026-12-03T10:00:00Z';
    const { code, out } = await withKey(file(bundle, certificate));
    expect(code).toBe(1);
    expect(out).toMatch(/eval-certificate: the bundle's SHA-256 is [0-9a-f]{64}, the certificate names [0-9a-f]{64}: it certifies another bundle/);
  });

  it('a certificate or an archive beside the bundle that cannot be read (a folder) is an input problem: one line, exit 2, no stack trace', async () => {
    const archived = file(signed());
    const archive = `${archived.replace(/\.json$/, '')}.archive.har.gz`;
    mkdirSync(archive);
    const besideArchive = await withKey(archived);
    expect(besideArchive.code).toBe(2);
    expect(besideArchive.err).toMatch(/^openwop-eval-conformance: cannot read the archive beside the bundle, \S+\.archive\.har\.gz \(EISDIR\)\n$/);
    expect(besideArchive.out).toBe('');

    const certified = file(signed(), false);
    mkdirSync(certificatePath(certified));
    const certificate = await withKey(certified);
    expect(certificate.code).toBe(2);
    expect(certificate.err).toMatch(/^openwop-eval-conformance: cannot read the eval certificate \S+\.eval-certificate\.json \(EISDIR\)\n$/);
    rmSync(certificatePath(certified), { recursive: true });
    // Text that is read and is not JSON stays the certificate's own failure.
    writeFileSync(certificatePath(certified), 'not\nJSON\n');
    const notJson = await withKey(certified);
    expect(notJson.code).toBe(1);
    // On one line, though JSON.parse's error quotes the text, line breaks and all.
    expect(notJson.out).toMatch(/^rejected \(this harness's check\): eval-certificate: \S+ is not JSON: .*"not\\nJSON\\n" is not valid JSON$/m);
  });
});
