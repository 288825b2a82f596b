// The structural check behind the `schema` rejection: the closed bundle v3 shape of wire facts
// §12.1, written out by hand because the project's schema registry (`lib/schemas/index.ts`) does
// not exist yet. When it lands with a `certification-bundle` schema, `shapeProblems` can defer to
// it; the rest of verify.ts does not change.
//
// It leaves to their own rejection kinds what they cover, so one defect is not named twice:
// `bundleVersion` (not-v3), `host.build` (build-missing), the presence of `signature` and its
// `over` and `sig` (signature-missing, signature-over, signature-invalid), and whether `detail`
// is required (detail-missing).
//
// One deliberate relaxation of the upstream schema: `suite.name` is a const
// `@openwop/openwop-conformance` there. This harness is not that suite and says so, so its
// bundles carry `openwop-eval-conformance`; this check accepts either name, so the verifier also
// reads bundles the upstream suite cut.

import { BUILD_KINDS, DISPOSITIONS } from './types.ts';

/** `suite.name` of the bundles this harness cuts. */
export const SUITE_NAME = 'openwop-eval-conformance';
/** `suite.name` the upstream schema pins (wire facts §12.1). */
export const UPSTREAM_SUITE_NAME = '@openwop/openwop-conformance';

export const HEX64 = /^[0-9a-f]{64}$/;
/** RFC 3339 `date-time` (JSON Schema `format: date-time`). */
export const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
/** Bundle row ids (RFC 0168 §A.1), without the upstream look-ahead that refuses the spec
 *  repository's coherence-file stems: their list is not published. */
export const ROW_ID = /^openwop\.(requirement|it|scenario|floor|profile|family)\.[a-z0-9]/;
export const PROFILE_ID = /^openwop-[a-z0-9-]+$/;
export const OBLIGATION = /^[^.\s]+\.[^\s]+$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects "<path>: <problem>" lines. */
class Shape {
  readonly problems: string[] = [];

  add(path: string, problem: string): void {
    this.problems.push(`${path}: ${problem}`);
  }

  /** An object with exactly the allowed members and at least the required ones. */
  record(value: unknown, path: string, allowed: readonly string[], required: readonly string[]): value is Json {
    if (!isObject(value)) {
      this.add(path, 'must be an object');
      return false;
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.add(`${path}.${key}`, 'is not a member of this closed record');
    }
    for (const key of required) {
      if (!(key in value)) this.add(`${path}.${key}`, 'is required');
    }
    return true;
  }

  string(value: unknown, path: string, pattern?: RegExp, what?: string): void {
    if (value === undefined) return;
    if (typeof value !== 'string' || value.length === 0) this.add(path, 'must be a non-empty string');
    else if (pattern !== undefined && !pattern.test(value)) this.add(path, `must be ${what ?? `a string matching ${pattern}`}`);
  }

  oneOf(value: unknown, path: string, options: readonly unknown[]): void {
    if (value === undefined) return;
    if (!options.includes(value)) this.add(path, `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
  }

  integer(value: unknown, path: string, minimum: number): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
      this.add(path, `must be an integer ≥ ${minimum}`);
    }
  }

  array(value: unknown, path: string): value is unknown[] {
    if (value === undefined) return false;
    if (!Array.isArray(value)) {
      this.add(path, 'must be an array');
      return false;
    }
    return true;
  }

  uri(value: unknown, path: string): void {
    if (value === undefined) return;
    let ok = typeof value === 'string';
    if (ok) {
      try {
        new URL(value as string);
      } catch {
        ok = false;
      }
    }
    if (!ok) this.add(path, 'must be an absolute URI');
  }
}

const NON_PASS = DISPOSITIONS.filter((d) => d !== 'executed-pass');

function checkRow(s: Shape, row: unknown, path: string): void {
  if (!s.record(row, path, ['id', 'scenario', 'result', 'assertions', 'detail', 'evidence'], ['id', 'scenario', 'result'])) return;
  s.string(row.id, `${path}.id`, ROW_ID, 'a bundle row id (openwop.<area>.<slug>)');
  s.string(row.scenario, `${path}.scenario`);
  s.oneOf(row.result, `${path}.result`, DISPOSITIONS);
  s.integer(row.assertions, `${path}.assertions`, 0);
  if (row.detail !== undefined && typeof row.detail !== 'string') s.add(`${path}.detail`, 'must be a string');
  if (row.evidence !== undefined && !isObject(row.evidence)) s.add(`${path}.evidence`, 'must be an object');
}

/**
 * Every way `bundle` departs from the closed v3 shape, as "<path>: <problem>" lines, leaving out
 * what the named rejection kinds cover (see the file comment). `signed: false` checks a bundle
 * before its signature is attached.
 */
export function shapeProblems(bundle: Json, options: { signed?: boolean } = {}): string[] {
  const s = new Shape();
  const signed = options.signed ?? true;
  const root = [
    'bundleVersion', 'generatedAt', 'suite', 'host', 'discovery', 'claimedProfiles', 'results',
    'witnessSha256', 'assertionCount', 'detail', 'durability', 'signature', 'verifierSignature',
  ];
  const required = ['generatedAt', 'suite', 'host', 'discovery', 'claimedProfiles', 'results', 'witnessSha256', 'assertionCount'];
  s.record(bundle, '$', signed ? root : root.filter((k) => k !== 'signature' && k !== 'verifierSignature'), required);

  s.string(bundle.generatedAt, '$.generatedAt', DATE_TIME, 'an RFC 3339 date-time');

  const suite = bundle.suite;
  if (suite !== undefined && s.record(suite, '$.suite', ['name', 'version', 'targetMajor', 'specArtifactsVersion', 'stampSha256'], ['name', 'version', 'targetMajor', 'specArtifactsVersion'])) {
    s.oneOf(suite.name, '$.suite.name', [SUITE_NAME, UPSTREAM_SUITE_NAME]);
    s.string(suite.version, '$.suite.version');
    s.oneOf(suite.targetMajor, '$.suite.targetMajor', [1, 2]);
    s.string(suite.specArtifactsVersion, '$.suite.specArtifactsVersion');
    s.string(suite.stampSha256, '$.suite.stampSha256', HEX64, '64 lower-case hex digits');
  }

  const host = bundle.host;
  if (host !== undefined && s.record(host, '$.host', ['name', 'version', 'vendor', 'build', 'signingKeyId', 'relaxations'], ['name', 'version'])) {
    s.string(host.name, '$.host.name');
    s.string(host.version, '$.host.version');
    s.string(host.vendor, '$.host.vendor');
    s.string(host.signingKeyId, '$.host.signingKeyId');
    if (s.array(host.relaxations, '$.host.relaxations')) {
      host.relaxations.forEach((relaxation, i) => {
        const at = `$.host.relaxations[${i}]`;
        if (!s.record(relaxation, at, ['obligation', 'durability', 'reason'], ['obligation', 'durability', 'reason'])) return;
        s.string(relaxation.obligation, `${at}.obligation`, OBLIGATION, '<family>.<name>');
        s.oneOf(relaxation.durability, `${at}.durability`, ['session', 'deployment', 'persisted']);
        s.string(relaxation.reason, `${at}.reason`);
      });
    }
  }

  const discovery = bundle.discovery;
  if (discovery !== undefined && s.record(discovery, '$.discovery', ['url', 'sha256', 'protocolVersions', 'preferredVersion', 'document'], ['url', 'sha256', 'protocolVersions', 'preferredVersion'])) {
    s.uri(discovery.url, '$.discovery.url');
    s.string(discovery.sha256, '$.discovery.sha256', HEX64, '64 lower-case hex digits');
    if (s.array(discovery.protocolVersions, '$.discovery.protocolVersions')) {
      discovery.protocolVersions.forEach((v, i) => s.string(v, `$.discovery.protocolVersions[${i}]`));
    }
    s.string(discovery.preferredVersion, '$.discovery.preferredVersion');
    if (discovery.document !== undefined && !isObject(discovery.document)) s.add('$.discovery.document', 'must be an object');
  }

  if (s.array(bundle.claimedProfiles, '$.claimedProfiles')) {
    bundle.claimedProfiles.forEach((profile, i) => {
      const at = `$.claimedProfiles[${i}]`;
      if (!s.record(profile, at, ['id', 'evidenceTier', 'witnessCount', 'certified'], ['id', 'evidenceTier', 'witnessCount', 'certified'])) return;
      s.string(profile.id, `${at}.id`, PROFILE_ID, 'a profile id (openwop-…)');
      s.oneOf(profile.evidenceTier, `${at}.evidenceTier`, ['self', 'steward', 'independent']);
      s.integer(profile.witnessCount, `${at}.witnessCount`, 0);
      if (profile.certified !== undefined && typeof profile.certified !== 'boolean') s.add(`${at}.certified`, 'must be a boolean');
    });
  }

  const results = bundle.results;
  if (results !== undefined && s.record(results, '$.results', ['totals', 'requirements'], ['totals', 'requirements'])) {
    const members = ['executedPass', 'executedFail', 'skipped', 'inapplicable', 'blocked'];
    if (results.totals !== undefined && s.record(results.totals, '$.results.totals', members, members)) {
      const totals = results.totals;
      for (const member of members) s.integer(totals[member], `$.results.totals.${member}`, 0);
    }
    if (s.array(results.requirements, '$.results.requirements')) {
      results.requirements.forEach((row, i) => checkRow(s, row, `$.results.requirements[${i}]`));
    }
  }

  s.string(bundle.witnessSha256, '$.witnessSha256', HEX64, '64 lower-case hex digits');
  s.integer(bundle.assertionCount, '$.assertionCount', 1);

  if (bundle.detail !== undefined && s.record(bundle.detail, '$.detail', ['nonPass'], ['nonPass'])) {
    const detail = bundle.detail;
    if (s.array(detail.nonPass, '$.detail.nonPass')) {
      detail.nonPass.forEach((entry, i) => {
        const at = `$.detail.nonPass[${i}]`;
        if (!s.record(entry, at, ['id', 'result', 'reason'], ['id', 'result', 'reason'])) return;
        s.string(entry.id, `${at}.id`);
        s.oneOf(entry.result, `${at}.result`, NON_PASS);
        s.string(entry.reason, `${at}.reason`);
      });
    }
  }

  if (bundle.durability !== undefined && s.record(bundle.durability, '$.durability', ['rung'], ['rung'])) {
    s.oneOf(bundle.durability.rung, '$.durability.rung', ['durable-single-instance', 'durable-multi-instance', 'multi-region-qualified']);
  }

  if (signed && isObject(bundle.signature)) {
    const signature = bundle.signature;
    s.record(signature, '$.signature', ['alg', 'keyId', 'sig', 'over'], ['alg', 'keyId']);
    s.oneOf(signature.alg, '$.signature.alg', ['ed25519']);
    s.string(signature.keyId, '$.signature.keyId');
  }
  if (signed && bundle.verifierSignature !== undefined && s.record(bundle.verifierSignature, '$.verifierSignature', ['alg', 'keyId', 'sig'], ['alg', 'keyId', 'sig'])) {
    const verifier = bundle.verifierSignature;
    s.oneOf(verifier.alg, '$.verifierSignature.alg', ['ed25519']);
    s.string(verifier.keyId, '$.verifierSignature.keyId');
  }

  // `build-missing` covers an absent or incomplete build; a present one is still closed.
  if (isObject(host) && isObject(host.build)) {
    for (const key of Object.keys(host.build)) {
      if (key !== 'kind' && key !== 'id') s.add(`$.host.build.${key}`, 'is not a member of this closed record');
    }
    s.oneOf(host.build.kind, '$.host.build.kind', BUILD_KINDS);
  }

  return s.problems;
}
