// What a bundle claims outside its signature, re-derived from what the signature covers (docs/wire.md
// §12.5 "Derivation" and "Certification rules"). `claimedProfiles`, `durability.rung` and
// the opt-outs are not among the four signed members, so the verifier never takes them on the
// bundle's word: it derives them from the signed discovery document (`discovery.sha256`) and the
// signed rows (`witnessSha256`). Pure; docs/auditing.md "Profiles and derivation" states every rule here.

import type { ClaimedProfile, EvidenceTier, LedgerRow } from './types.ts';
import { isJsonObject } from '../json-value.ts';

type Json = Record<string, unknown>;

/**
 * The OpenWOP major-2 profiles as predicates over the discovery root: every listed family present
 * as a record (a JSON object), every listed metadata key present (docs/auditing.md "Profiles and
 * derivation", which names where the table was read and when). The upstream registry holds many
 * more; an id outside this table is undecidable here, and verify.ts says so instead of refusing it.
 */
export const V2_PROFILES: readonly { id: string; families: readonly string[]; metadata: readonly string[] }[] = [
  { id: 'openwop-discovery-core', families: [], metadata: ['protocolVersions', 'preferredVersion'] },
  { id: 'openwop-core-standard', families: ['interrupt', 'replay', 'webhooks', 'idempotency', 'eventLog'], metadata: [] },
  { id: 'openwop-conformance-seams-v2', families: [], metadata: ['conformance'] },
];

/** The major-2 profiles `document` derives, in table order. */
export function derivableV2Profiles(document: Json): string[] {
  return V2_PROFILES.filter(
    (profile) => profile.families.every((family) => isJsonObject(document[family])) && profile.metadata.every((key) => document[key] !== undefined),
  ).map((profile) => profile.id);
}

/**
 * Whether `profile` is derivable from `document` at `targetMajor`; `undefined` when this harness
 * cannot decide (major 1: the v1 profile catalogue is not encoded here, and an undecidable
 * question is not a "no").
 */
export function profileDerivable(document: Json, profile: string, targetMajor: unknown): boolean | undefined {
  if (targetMajor !== 2) return undefined;
  return derivableV2Profiles(document).includes(profile);
}

/**
 * `claimedProfiles` for a bundle this harness cuts: every profile the host's own discovery
 * derives, as the OpenWOP suite claims them. None is certified, with no witness: a profile
 * certifies on its floor scenarios, and no requirement id of this harness is a floor row of any
 * OpenWOP profile (docs/auditing.md "Profiles and derivation"). Major 1 derives nothing.
 */
export function claimedProfilesFromDiscovery(document: Json, targetMajor: 1 | 2, evidenceTier: EvidenceTier = 'self'): ClaimedProfile[] {
  if (targetMajor !== 2) return [];
  return derivableV2Profiles(document).map((id) => ({ id, evidenceTier, witnessCount: 0, certified: false }));
}

/**
 * The claimed profiles a declared relaxation denies (docs/wire.md §12.5: a profile with a declared
 * relaxation cannot certify). An obligation is `<family>.<name>`; it denies the profiles whose
 * predicate lists that family, and any profile whose id names the family.
 */
export function profilesRelaxedBy(obligations: readonly string[], profileIds: readonly string[]): Set<string> {
  const families = new Set(obligations.map((o) => o.split('.')[0] ?? '').filter((f) => f.length > 0));
  const denied = new Set<string>();
  for (const id of profileIds) {
    const owned = V2_PROFILES.find((p) => p.id === id)?.families ?? [];
    if (owned.some((f) => families.has(f)) || [...families].some((f) => id.includes(f))) denied.add(id);
  }
  return denied;
}

const OPT_OUT_PREFIX = 'openwop.profile.';

/** The opt-outs the signed rows record (docs/wire.md §12.5 `optedOut`), sorted. */
export function optedOutFromRows(rows: readonly LedgerRow[]): string[] {
  return rows
    .filter((row) => row.id.startsWith(OPT_OUT_PREFIX) && row.result === 'skipped' && (row.detail ?? '').includes('OPENWOP_OPTED_OUT_PROFILES'))
    .map((row) => row.id.slice(OPT_OUT_PREFIX.length))
    .sort();
}

/** Whether discovery advertises an opted-out name: `family.<key>` is a root record, else a profile. */
export function advertises(document: Json, name: string, targetMajor: unknown): boolean | undefined {
  if (name.startsWith('family.')) return isJsonObject(document[name.slice('family.'.length)]);
  return profileDerivable(document, name, targetMajor);
}

export const RUNGS = ['durable-single-instance', 'durable-multi-instance', 'multi-region-qualified'] as const;

const DURABILITY = 'openwop.requirement.0158.';
const RUNG_ROWS = ['kill-after-accept', 'kill-during-execution', 'duplicate-delivery', 'poison-exhaustion', 'bound-is-derived'].map((r) => DURABILITY + r);
const KILL_ROWS = [`${DURABILITY}kill-after-accept`, `${DURABILITY}kill-during-execution`];
const BOUND_ROW = `${DURABILITY}bound-is-derived`;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Why the rows do not support `durability.rung`, or `undefined` when they do (docs/wire.md §12.5
 * `rung-not-derivable`; docs/auditing.md "Profiles and derivation"). Only the lowest rung is derivable: its
 * five durability rows executed-pass, the bound row declaring recovery classes whose terms sum to
 * their bounds, and each kill row naming a declared class, its bound, and a recovery inside it.
 */
export function rungProblem(claimed: unknown, rows: readonly LedgerRow[]): string | undefined {
  if (claimed === undefined) return undefined;
  if (typeof claimed !== 'string' || !(RUNGS as readonly string[]).includes(claimed)) {
    return `durability.rung ${JSON.stringify(claimed) ?? String(claimed)} is not one of ${RUNGS.join(', ')}`;
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const unsupported = (why: string): string => `durability.rung claims ${claimed}, but the signed rows support no rung: ${why}`;
  for (const id of RUNG_ROWS) {
    const row = byId.get(id);
    if (row === undefined) return unsupported(`${id} is absent`);
    if (row.result !== 'executed-pass') return unsupported(`${id} is ${row.result}`);
  }
  const declared = byId.get(BOUND_ROW)?.evidence?.recoveryBounds;
  if (!Array.isArray(declared) || declared.length === 0) return unsupported(`${BOUND_ROW} declares no evidence.recoveryBounds`);
  const bounds = new Map<string, number>();
  for (const entry of declared) {
    const terms = isJsonObject(entry) && Array.isArray(entry.terms) ? entry.terms : [];
    if (!isJsonObject(entry) || typeof entry.class !== 'string' || !isCount(entry.bound) || terms.length === 0 || bounds.has(entry.class)) {
      return unsupported(`${BOUND_ROW} declares a malformed or repeated recovery class`);
    }
    const sum = terms.reduce((total: number, term: unknown) => total + (isJsonObject(term) && isCount(term.ms) ? term.ms : Number.NaN), 0);
    if (sum !== entry.bound) return unsupported(`recovery class ${entry.class}: its terms sum to ${sum} ms, not its bound ${entry.bound} ms`);
    bounds.set(entry.class, entry.bound);
  }
  for (const id of KILL_ROWS) {
    const seen = byId.get(id)?.evidence?.recovery;
    if (!isJsonObject(seen) || typeof seen.class !== 'string' || !isCount(seen.boundMs) || !isCount(seen.observedMs)) {
      return unsupported(`${id} records no well-formed evidence.recovery`);
    }
    const bound = bounds.get(seen.class);
    if (bound === undefined) return unsupported(`${id} exercised recovery class ${seen.class}, which ${BOUND_ROW} does not declare`);
    if (seen.boundMs !== bound) return unsupported(`${id} was judged against ${seen.boundMs} ms, but class ${seen.class} declares ${bound} ms`);
    if (seen.observedMs > bound) return unsupported(`${id} resumed after ${seen.observedMs} ms, outside the ${bound} ms bound`);
  }
  if (claimed !== 'durable-single-instance') {
    return `durability.rung claims ${claimed}, but the signed rows support only durable-single-instance; a higher rung has no evidence a bundle can carry`;
  }
  return undefined;
}
