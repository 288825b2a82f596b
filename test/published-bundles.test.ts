// Whole bundles the OpenWOP project publishes (openwop/openwop evidence/v2-host-bundles/, stored
// verbatim in vectors/upstream/, their source and commit in its README), run through this
// harness's restatement of the official bundle-v3 rules. Each is published as accepted evidence,
// so the official verifier says of it: no rejection, the signature holds under the key its host
// publishes, and every profile the bundle marks certified stays certified. That is what each test
// expects, with the profiles written out from the published file. Edits to the published data
// then show that the same rules refuse what they must: the expectation is not a rule that passes
// everything.

import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shapeProblems } from '../lib/evidence/shape.ts';
import { verifyBundle } from '../lib/evidence/verify.ts';
import { cli } from './support/cli.ts';

type Json = Record<string, any>;

interface Published {
  file: string;
  /** The length of the published file in UTF-16 code units, as the source reports it: the copy is whole. */
  chars: number;
  /** Where the host publishes the key under `signature.keyId` (unpadded base64url, 32 bytes). */
  key: { keyId: string; publicKey: string; publishedIn: string };
  /** The profiles the published bundle marks certified, which the official rules leave certified. */
  certified: string[];
  /** `discovery.document` is embedded, so derivability is checked. */
  derivabilityChecked: boolean;
}

const PUBLISHED: Published[] = [
  {
    file: 'openwop-host-v2-reference.json',
    chars: 125_764,
    key: { keyId: 'v2-reference-4', publicKey: 'F588CksLq-PVrpqTFhYcweE4WFYOcj6-jyjz7KmKipU', publishedIn: 'its own discovery.document.signingKeys' },
    certified: ['openwop-discovery-core', 'openwop-core-standard', 'openwop-conformance-seams-v2'],
    derivabilityChecked: true,
  },
  {
    file: 'openwop-workflow-engine.json',
    chars: 83_423,
    key: {
      keyId: 'openwop-app-self-2026-09-04',
      publicKey: 'SFBjFSjHaQSUbIb-FQudyk-DwOagmGyshJBwC-0zvZ4',
      publishedIn: "the host's later discovery documents, retired 2026-09-19 and still listed (docs/wire.md §12.4)",
    },
    certified: [],
    derivabilityChecked: false,
  },
];

const dir = mkdtempSync(join(tmpdir(), 'owec-published-'));

function load(file: string): { text: string; bundle: Json } {
  const text = readFileSync(new URL(`../vectors/upstream/${file}`, import.meta.url), 'utf8');
  return { text, bundle: JSON.parse(text) as Json };
}

const pemOf = (publicKey: string): string =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();

describe.each(PUBLISHED)('the published bundle $file', (published) => {
  const { text, bundle } = load(published.file);
  const pem = pemOf(published.key.publicKey);

  it('is stored whole, and signed under the key its host publishes', () => {
    expect(text.length).toBe(published.chars);
    expect(bundle.signature.keyId).toBe(published.key.keyId);
    expect(bundle.host.signingKeyId).toBe(published.key.keyId);
    const embedded = (bundle.discovery.document?.signingKeys ?? []) as Json[];
    if (published.derivabilityChecked) expect(embedded.find((k) => k.keyId === published.key.keyId)?.publicKey).toBe(published.key.publicKey);
  });

  it('the official rules: no rejection, the signature holds, every profile it marks certified stays certified', () => {
    const result = verifyBundle(bundle, { hostPublicKeyPem: pem });
    expect(result.upstream).toEqual({
      rejections: [],
      certifiedProfiles: published.certified,
      undecidable: [],
      derivabilityChecked: published.derivabilityChecked,
      signatureVerified: true,
    });
    // The profiles above are the ones the published file marks certified, in its order.
    expect((bundle.claimedProfiles as Json[]).filter((p) => p.certified).map((p) => p.id)).toEqual(published.certified);
    // Nor does a check of this harness's own, or the bundle v3 shape, refuse it.
    expect(result.rejections).toEqual([]);
    expect(shapeProblems(bundle)).toEqual([]);
  });

  it('without the key the signature is not checked, and nothing is refused for it', () => {
    const result = verifyBundle(bundle);
    expect(result.upstream.signatureVerified).toBe(false);
    expect(result.upstream.rejections).toEqual([]);
  });

  it('a row flipped after signing: witness-digest, and no profile certifies', () => {
    const flipped = structuredClone(bundle);
    const row = (flipped.results.requirements as Json[]).find((r) => r.result === 'executed-pass')!;
    row.assertions += 1;
    flipped.assertionCount += 1;
    const result = verifyBundle(flipped, { hostPublicKeyPem: pem });
    expect(result.upstream.rejections.map((r) => r.kind)).toEqual(['witness-digest']);
    expect(result.upstream.certifiedProfiles).toEqual([]);
    // The signature covers the digest member, not the rows: it still holds.
    expect(result.upstream.signatureVerified).toBe(true);
  });

  it('another key: signature-invalid', () => {
    const other = pemOf('pOqpzFZhTHK5mDkIup-8cDU7CTWXre0h8zsZzrXi42M');
    const result = verifyBundle(bundle, { hostPublicKeyPem: other });
    expect(result.upstream.rejections.map((r) => r.kind)).toEqual(['signature-invalid']);
    expect(result.upstream.signatureVerified).toBe(false);
  });

  it('a profile outside the official v2 table marked certified: profile-not-derivable for it alone, where derivability is checked', () => {
    const claimed = structuredClone(bundle);
    claimed.claimedProfiles.push({ id: 'openwop-v2-agents-registry', evidenceTier: 'self', witnessCount: 12, certified: true });
    const result = verifyBundle(claimed, { hostPublicKeyPem: pem });
    if (published.derivabilityChecked) {
      expect(result.upstream.rejections.map((r) => [r.kind, r.profile])).toEqual([['profile-not-derivable', 'openwop-v2-agents-registry']]);
      expect(result.upstream.certifiedProfiles).toEqual(published.certified);
    } else {
      // Without an embedded document, and with blocked rows, the official rules refuse the whole claim instead.
      expect(result.upstream.rejections.map((r) => r.kind)).toEqual(bundle.results.totals.blocked > 0 ? ['blocked-certified'] : []);
      expect(result.upstream.certifiedProfiles).toEqual([]);
    }
  });
});

describe('the published reference bundle, edited where only derivation can tell', () => {
  const { bundle } = load('openwop-host-v2-reference.json');
  const pem = pemOf('F588CksLq-PVrpqTFhYcweE4WFYOcj6-jyjz7KmKipU');

  it('its embedded discovery document changed: discovery-digest', () => {
    const edited = structuredClone(bundle);
    delete edited.discovery.document.webhooks;
    const result = verifyBundle(edited, { hostPublicKeyPem: pem });
    expect(result.upstream.rejections.map((r) => r.kind)).toEqual(['discovery-digest']);
    expect(result.upstream.certifiedProfiles).toEqual([]);
  });

  it('the egress-refusal row failed after signing: witness-digest, and undeclared-relaxation-observed for core-standard alone', () => {
    const edited = structuredClone(bundle);
    const row = (edited.results.requirements as Json[]).find((r) => r.id === 'openwop.requirement.0171.webhook-egress-refused')!;
    Object.assign(row, { result: 'executed-fail', detail: 'accepted a loopback destination' });
    edited.results.totals.executedPass -= 1;
    edited.results.totals.executedFail += 1;
    const result = verifyBundle(edited, { hostPublicKeyPem: pem });
    expect(result.upstream.rejections.map((r) => [r.kind, r.profile])).toEqual([
      ['witness-digest', undefined],
      ['undeclared-relaxation-observed', 'openwop-core-standard'],
    ]);
  });
});

describe('verify on a published bundle', () => {
  it('prints the official verdict as the upstream verdict, and "eval verdict: does not apply", exit 6', async () => {
    const path = join(dir, 'openwop-host-v2-reference.json');
    writeFileSync(path, load('openwop-host-v2-reference.json').text);
    writeFileSync(join(dir, 'reference.pub.pem'), pemOf('F588CksLq-PVrpqTFhYcweE4WFYOcj6-jyjz7KmKipU'));
    const { code, out } = await cli('verify', path, '--host-key', join(dir, 'reference.pub.pem'));
    expect(code, out).toBe(6);
    expect(out).toMatch(/^authenticity: verified /m);
    expect(out).toMatch(
      /^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: openwop-discovery-core, openwop-core-standard, openwop-conformance-seams-v2; signatureVerified true; derivabilityChecked true$/m,
    );
    expect(out).toMatch(/^eval verdict: does not apply: the bundle was cut by @openwop\/openwop-conformance 2\.38\.0, not by openwop-eval-conformance /m);
  });
});
