// `verify` as an auditor's tool (docs/auditing.md "Verifying a bundle", "Exit codes"): one test per exit
// code, authenticity and the verdict as two statements, the totals, completeness against this
// harness's requirement ids, and every derivation and consistency check, each on a bundle with
// exactly one planted defect.

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle, signBundle } from '../lib/evidence/bundle.ts';
import { certificationOf } from '../lib/evidence/certification.ts';
import { claimedProfilesFromDiscovery, derivableV2Profiles, rungProblem } from '../lib/evidence/derivation.ts';
import { HARNESS_KINDS, UPSTREAM_SUITE_NAME, type Bundle, type ClaimedProfile, type LedgerRow, type RejectionKind } from '../lib/evidence/index.ts';
import { ALL_PROFILES, DEV, DOCUMENT, dir, file, fullRows, harness, HOLDS, input, rowsWith, signed, verify, withKey } from './support/verify-fixtures.ts';

describe('verify: exit codes', () => {
  it('0: authentic and certified — every requirement id present, none failed or blocked, signature checked', async () => {
    const { code, out } = await withKey(file(signed()));
    expect(code).toBe(0);
    expect(out).toMatch(/^authenticity: verified /m);
    expect(out).toMatch(
      new RegExp(
        `^totals \\(counted from the rows\\): ${harness.requirementIds.length} row\\(s\\): ${harness.requirementIds.length} executed-pass, 0 executed-fail, 0 skipped, 0 inapplicable, 0 blocked; assertionCount ${2 * harness.requirementIds.length}$`,
        'm',
      ),
    );
    expect(out).toMatch(
      new RegExp(
        `^coverage \\(this harness's completeness check\\): ${harness.requirementIds.length} of the ${harness.requirementIds.length} requirement ids of this harness version$`,
        'm',
      ),
    );
    expect(out).toContain(`\neval verdict: certified: ${ALL_PROFILES}\n`);
    // The official rules accept the bundle: nothing they cannot derive is marked certified.
    expect(out).toMatch(
      /^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: none; signatureVerified true; derivabilityChecked true$/m,
    );
    expect(out).toMatch(/^schema \(official closed bundle-v3 schema\): valid, but for suite\.name "openwop-eval-conformance" /m);
    expect(out).not.toMatch(/^rejected/m);
  });

  it('1: rejected, every rejection listed, and the verdict is not certified', async () => {
    const bundle = signed();
    bundle.results.totals.executedPass += 1;
    const { code, out } = await withKey(file(bundle));
    expect(code).toBe(1);
    expect(out).toMatch(/^rejected \(upstream rule\): totals-mismatch: /m);
    expect(out).toMatch(/^authenticity: rejected \(1 rejection above\)$/m);
    expect(out).toMatch(/^upstream verdict \(official bundle-v3 rules\): 1 rejection\(s\) \(totals-mismatch\); certified profiles: none/m);
    expect(out).toMatch(/^eval verdict: nothing certified: the bundle is rejected/m);
  });

  it('2: a problem with the inputs — a missing, private, or non-Ed25519 key file, or both key sources', async () => {
    const path = file(signed());
    const missing = await verify(path, '--host-key', join(dir, 'absent.pub.pem'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^openwop-eval-conformance: --host-key: cannot read the public key file .*absent\.pub\.pem/);
    expect(missing.out).toBe('');
    // Any private key is refused in one line that echoes none of it: Ed25519, RSA, encrypted.
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    writeFileSync(join(dir, 'rsa.pem'), rsa.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'rsa1.pem'), rsa.export({ type: 'pkcs1', format: 'pem' }));
    writeFileSync(
      join(dir, 'encrypted.pem'),
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }),
    );
    for (const name of ['host.pem', 'rsa.pem', 'rsa1.pem', 'encrypted.pem']) {
      const priv = await verify(path, '--host-key', join(dir, name));
      expect(priv.code, name).toBe(2);
      expect(priv.err).toMatch(
        new RegExp(`^openwop-eval-conformance: --host-key: \\S+${name.replace('.', '\\.')} holds a private key; give the host's public key`),
      );
      expect(priv.out).toBe('');
      const body = readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('-----'));
      for (const line of body) expect(priv.err).not.toContain(line.slice(0, 16));
    }
    // A missing key file is the auditor's mistake (2); no key at all is a bundle not checked (5).
    const none = await verify(path);
    expect(none.code).toBe(5);
    expect(none.err).toBe('');
    expect(none.out).toMatch(/^authenticity: unverified \(no host key given/m);
    writeFileSync(join(dir, 'garbage.pem'), 'not a key');
    expect((await verify(path, '--host-key', join(dir, 'garbage.pem'))).code).toBe(2);
    const both = await verify(path, '--host-key', join(dir, 'host.pub.pem'), '--discovery', 'http://127.0.0.1:9');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/give one of --host-key, --discovery and --bundle-discovery, not several/);
    for (const result of [missing, both]) expect(result.err.trim().split('\n')).toHaveLength(1);
    expect((await verify(path, '--bogus')).code).toBe(2);
    const unreachable = await verify(path, '--discovery', 'http://127.0.0.1:9');
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toMatch(/^openwop-eval-conformance: --discovery: /);
    expect((await verify(path, '--discovery', 'ftp://host.example')).code).toBe(2);
  });

  it('3: not a bundle — {}, a missing file, not JSON, an array, a repeated member name', async () => {
    for (const path of [file('{}'), join(dir, 'absent.json'), file('{"bundleVersion": '), file('[]'), file('{"bundleVersion": "3", "bundleVersion": "3"}')]) {
      const result = await verify(path, '--host-key', join(dir, 'host.pub.pem'));
      expect(result.code, path).toBe(3);
      expect(result.err).toMatch(/^openwop-eval-conformance: not a bundle: /);
      expect(result.err.trim().split('\n')).toHaveLength(1);
    }
    expect((await verify(file('{}'))).err).toMatch(/no bundleVersion/);
  });

  it('4: nothing certified — a filtered run of one row out of all is verified, and every profile is denied by an id with no row', async () => {
    const rows = fullRows().slice(0, 1);
    const { code, out } = await withKey(file(signed({ rows })));
    expect(code).toBe(4);
    expect(out).toMatch(/^authenticity: verified /m);
    expect(out).toMatch(new RegExp(`^coverage \\(this harness's completeness check\\): 1 of the ${harness.requirementIds.length} requirement ids`, 'm'));
    expect(out).toMatch(
      /^eval verdict: nothing certified; not certified: openwop-eval-suite-core \(openwop\.requirement\.0081\.eval-run-events: no row: a filtered or partial run certifies nothing it did not run and \d+ more\), openwop-eval-trajectory \(/m,
    );
  });

  it('4: nothing certified — every row executed-fail', async () => {
    const rows = rowsWith((r) => {
      for (const row of r) Object.assign(row, { result: 'executed-fail', detail: 'RFC 0244 §B: wrong' });
    });
    const { code, out } = await withKey(file(signed({ rows })));
    expect(code).toBe(4);
    expect(out).toMatch(/^authenticity: verified /m);
    expect(out).toMatch(
      /^eval verdict: nothing certified; not certified: openwop-eval-suite-core \(openwop\.requirement\.0081\.eval-run-events: executed-fail and /m,
    );
  });

  it('0: partly certified — one failing trajectory row denies that profile alone, by name', async () => {
    const failing = 'openwop.requirement.0244.modes-each-rule';
    const rows = rowsWith((r) => Object.assign(r.find((row) => row.id === failing)!, { result: 'executed-fail', detail: 'RFC 0244 §A: wrong' }));
    const { code, out } = await withKey(file(signed({ rows })));
    expect(code).toBe(0);
    const others = ALL_PROFILES.replace('openwop-eval-trajectory, ', '');
    expect(out).toContain(`\neval verdict: certified: ${others}; not certified: openwop-eval-trajectory (${failing}: executed-fail)\n`);
  });

  it('4: nothing certified — a blocked row denies every profile (RFC 0168 §E.1)', async () => {
    const rows = rowsWith((r) => Object.assign(r[3]!, { result: 'blocked', assertions: 0, detail: 'transport-loss: the connection dropped' }));
    const { code, out } = await withKey(file(signed({ rows })));
    expect(code).toBe(4);
    expect(out).toMatch(/^eval verdict: nothing certified; not certified: openwop-eval-suite-core \(\S+: blocked/m);
  });

  it('6: a bundle from another harness version: the eval verdict does not apply', async () => {
    const bundle = signed({ suite: { name: harness.name, version: '0.0.1-other', targetMajor: 2, specArtifactsVersion: '0.0.1' } });
    const { code, out } = await withKey(file(bundle));
    expect(code).toBe(6);
    expect(out).not.toMatch(/^coverage/m);
    expect(out).toMatch(/^eval verdict: does not apply: the bundle was cut by another version of this harness \(openwop-eval-conformance 0\.0\.1-other\)/m);
  });

  it('a bundle whose suite names no harness: the eval verdict says so, not "undefined"', async () => {
    const { out } = await withKey(file({ ...signed(), suite: {} }));
    expect(out).toMatch(
      /^eval verdict: does not apply: the bundle was cut by a harness it does not name \(no suite\.name, no suite\.version\), not by openwop-eval-conformance /m,
    );
  });

  it('5: coherent and certified on its face, but no host key was given', async () => {
    const { code, out } = await verify(file(signed()));
    expect(code).toBe(5);
    expect(out).toMatch(/^authenticity: unverified \(no host key given/m);
    expect(out).toContain(`\neval verdict: unverified (no host key was given, so the signature was not checked): certified: ${ALL_PROFILES}\n`);
  });

  it("5: another suite's certified profile with no discovery document to re-derive it from", async () => {
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 3, certified: true }];
    const bundle = signed({
      claimedProfiles,
      suite: { name: UPSTREAM_SUITE_NAME, version: '2.41.0', targetMajor: 2, specArtifactsVersion: '2.41.0' },
    }) as Bundle & {
      discovery: { document?: unknown };
    };
    bundle.claimedProfiles = claimedProfiles;
    delete bundle.discovery.document;
    const { code, out } = await withKey(file(bundle));
    expect(code).toBe(5);
    expect(out).toMatch(/^note: the certified profiles were not re-derived/m);
  });
});

describe('verify: checks beyond the rows', () => {
  async function rejectedFor(bundle: unknown, kind: RejectionKind, keyFile = 'host.pub.pem'): Promise<string> {
    const { code, out } = await verify(file(bundle), '--host-key', join(dir, keyFile));
    expect(code, out).toBe(1);
    const kinds = [...out.matchAll(/^rejected \((upstream rule|this harness's check)\): ([a-z-]+):/gm)].map((m) => [m[1], m[2]]);
    expect(kinds).toEqual([[HARNESS_KINDS.includes(kind) ? "this harness's check" : 'upstream rule', kind]]);
    return out;
  }

  it('a development key claiming steward evidence', async () => {
    const devKeyId = DEV.keyId;
    const unsigned = buildBundle(input({ host: { ...input().host, signingKeyId: devKeyId, selfSignedDevelopmentKey: true } }));
    const bundle = signBundle(unsigned, DEV.privateKeyPem, devKeyId);
    bundle.claimedProfiles = [{ id: 'openwop-discovery-core', evidenceTier: 'steward', witnessCount: 0, certified: false }];
    expect(await rejectedFor(bundle, 'development-key-tier', 'dev.pub.pem')).toMatch(
      /claims "steward" evidence, but the bundle is signed with development key openwop-eval-conformance-dev-/,
    );
  });

  it('host.signingKeyId naming another key than the signature', async () => {
    const bundle = signed();
    bundle.host.signingKeyId = 'someone-else';
    expect(await rejectedFor(bundle, 'signing-key-mismatch')).toMatch(/host\.signingKeyId is someone-else, but the signature names key acme-key-1/);
  });

  it('host name, version or vendor differing from the signed discovery document', async () => {
    for (const [member, value] of [
      ['name', 'other-host'],
      ['version', '9.9.9'],
      ['version', '1.4.0-rc.1'],
      ['vendor', 'Other'],
    ] as const) {
      const bundle = signed();
      bundle.host[member] = value;
      expect(await rejectedFor(bundle, 'host-mismatch')).toMatch(
        new RegExp(`host\\.${member} is "${value}", but the signed discovery document states implementation\\.${member}`),
      );
    }
    const noVendor = signed();
    delete noVendor.host.vendor;
    await rejectedFor(noVendor, 'host-mismatch');
  });

  it("discovery.protocolVersions differing from the signed document: this harness's check, not the upstream rule of that kind", async () => {
    const bundle = signed();
    bundle.discovery.protocolVersions = ['1.1', '2.0'];
    const { code, out } = await withKey(file(bundle));
    expect(code).toBe(1);
    expect(out).toMatch(/^rejected \(this harness's check\): discovery-digest: discovery\.protocolVersions differs from the embedded document$/m);
    expect(out).toMatch(/^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: none;/m);
  });

  it('a build suffix on host.version beside discovery implementation.version is no mismatch', async () => {
    const { code, out } = await withKey(file(signed({ host: { ...input().host, version: '1.4.0+side-rev-abc123' } })));
    expect(code, out).toBe(0);
  });

  it('a certified profile with no witness', async () => {
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 0, certified: true }];
    expect(await rejectedFor(signed({ claimedProfiles }), 'profile-unwitnessed')).toMatch(/witnessCount 0; a profile nothing witnessed certifies nothing/);
  });

  it('a certified profile the signed discovery derives, with witnesses, is certified', async () => {
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 3, certified: true }];
    const { code, out } = await withKey(file(signed({ claimedProfiles })));
    expect(code).toBe(0);
    expect(out).toMatch(/^upstream verdict \(official bundle-v3 rules\): no rejection; certified profiles: openwop-discovery-core;/m);
  });

  it('a certified profile the signed discovery does not derive', async () => {
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 14, certified: true }];
    expect(await rejectedFor(signed({ claimedProfiles }), 'profile-not-derivable')).toMatch(
      /openwop-core-standard is marked certified, but the signed discovery document does not derive it/,
    );
  });

  it('a certified profile beside a blocked row', async () => {
    const rows = rowsWith((r) => Object.assign(r[0]!, { result: 'blocked', assertions: 0, detail: 'transport-loss' }));
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 3, certified: true }];
    // buildBundle refuses this, so the claim is planted after signing (claimedProfiles is unsigned).
    const bundle = signed({ rows });
    bundle.claimedProfiles = claimedProfiles;
    expect(await rejectedFor(bundle, 'blocked-certified')).toMatch(/1 row\(s\) are blocked, yet openwop-discovery-core is marked certified/);
  });

  it('a certified profile with a declared relaxation on one of its families', async () => {
    const document = { ...DOCUMENT, interrupt: {}, replay: {}, webhooks: {}, idempotency: {}, eventLog: {} };
    const claimedProfiles: ClaimedProfile[] = [{ id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 14, certified: true }];
    const relaxations = [{ obligation: 'webhooks.signature', durability: 'session' as const, reason: 'test host' }];
    const bundle = signed({ claimedProfiles, host: { ...input().host, relaxations } }, document);
    expect(await rejectedFor(bundle, 'relaxed-profile-certified')).toMatch(/openwop-core-standard is marked certified while a relaxation/);
  });

  it('a durability rung no row supports', async () => {
    const bundle = signed() as Bundle & { durability?: unknown };
    bundle.durability = { rung: 'durable-single-instance' };
    expect(await rejectedFor(bundle, 'rung-not-derivable')).toMatch(/openwop\.requirement\.0158\.kill-after-accept is absent/);
  });

  it('an opt-out of a family the signed discovery advertises', async () => {
    const rows = [
      ...fullRows(),
      {
        id: 'openwop.profile.family.agents',
        scenario: 'v2-eval-run.test.ts',
        result: 'skipped' as const,
        detail: 'operator opted the family out (OPENWOP_OPTED_OUT_PROFILES)',
      },
    ];
    const out = await rejectedFor(signed({ rows }), 'opted-out-but-advertised');
    expect(out).toMatch(/family\.agents is recorded as an operator opt-out/);
  });
});

describe('claimedProfiles and the rules behind them', () => {
  it('are derived from discovery, none certified, at major 2 only', () => {
    expect(derivableV2Profiles(DOCUMENT)).toEqual(['openwop-discovery-core', 'openwop-conformance-seams-v2']);
    expect(buildBundle({ ...input(), claimedProfiles: undefined }).claimedProfiles).toEqual([
      { id: 'openwop-discovery-core', evidenceTier: 'self', witnessCount: 0, certified: false },
      { id: 'openwop-conformance-seams-v2', evidenceTier: 'self', witnessCount: 0, certified: false },
    ]);
    expect(claimedProfilesFromDiscovery(DOCUMENT, 1)).toEqual([]);
    const { conformance: _c, ...plain } = DOCUMENT;
    expect(derivableV2Profiles(plain)).toEqual(['openwop-discovery-core']);
  });

  it('a rung derives from five passing durability rows with consistent recovery evidence, and no higher', () => {
    const R = 'openwop.requirement.0158.';
    const rows: LedgerRow[] = ['duplicate-delivery', 'poison-exhaustion'].map((s) => ({
      id: R + s,
      scenario: 'd.test.ts',
      result: 'executed-pass',
      assertions: 1,
    }));
    rows.push({
      id: `${R}bound-is-derived`,
      scenario: 'd.test.ts',
      result: 'executed-pass',
      assertions: 1,
      evidence: {
        recoveryBounds: [
          {
            class: 'leased',
            bound: 750,
            terms: [
              { name: 'lease', ms: 720 },
              { name: 'poll', ms: 30 },
            ],
          },
        ],
      },
    });
    for (const s of ['kill-after-accept', 'kill-during-execution'])
      rows.push({
        id: R + s,
        scenario: 'd.test.ts',
        result: 'executed-pass',
        assertions: 1,
        evidence: { recovery: { class: 'leased', boundMs: 750, observedMs: 400 } },
      });
    expect(rungProblem('durable-single-instance', rows)).toBeUndefined();
    expect(rungProblem('durable-multi-instance', rows)).toMatch(/support only durable-single-instance/);
    expect(rungProblem('platinum', rows)).toMatch(/is not one of/);
    rows[3]!.evidence = { recovery: { class: 'leased', boundMs: 750, observedMs: 900 } };
    expect(rungProblem('durable-single-instance', rows)).toMatch(/outside the 750 ms bound/);
  });

  it('the eval verdict: a rejected bundle, an unknown row or no discovery document certifies nothing', () => {
    const rows = rowsWith((r) => {
      r.pop();
    });
    const bundle = { suite: { name: harness.name, version: harness.version }, discovery: { document: DOCUMENT } };
    const partial = certificationOf(bundle, rows, false, harness, HOLDS);
    expect(partial.missing).toEqual([harness.requirementIds.at(-1)]);
    expect(partial.status).not.toBe('certified');
    expect(certificationOf(bundle, fullRows(), true, harness, HOLDS).status).toBe('rejected');
    const extra = [...fullRows(), { id: 'openwop.requirement.9999.invented', scenario: 'x.test.ts', result: 'executed-pass' as const, assertions: 1 }];
    expect(certificationOf(bundle, extra, false, harness, HOLDS)).toMatchObject({ status: 'rejected', unknown: ['openwop.requirement.9999.invented'] });
    expect(certificationOf({ suite: bundle.suite, discovery: {} }, fullRows(), false, harness, HOLDS).status).toBe('rejected');
  });
});
