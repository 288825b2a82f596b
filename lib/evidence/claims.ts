// The claims of a bundle outside its signature, re-derived from what the signature covers
// (docs/wire.md §12.5 "Derivation" and "Certification rules"): the host record against the signed
// discovery, the certified profiles, the rung and the opt-outs. verify.ts calls it with its
// `reject`; the rules themselves are derivation.ts and docs/auditing.md "Profiles and derivation".

import type { LedgerRow, RejectionKind } from './types.ts';
import { advertises, optedOutFromRows, profileDerivable, profilesRelaxedBy, rungProblem } from './derivation.ts';
import { isJsonObject } from '../json-value.ts';

type Json = Record<string, unknown>;

/** A value for a rejection detail: its JSON when it has one, `absent` for undefined. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A BigInt, a cycle, an object without a prototype: name the type, never throw.
    return typeof value === 'bigint' ? `${value}n` : `a non-JSON ${typeof value}`;
  }
}

export interface DerivedClaims {
  /** The profiles marked certified that no relaxation denies. */
  certifiedProfiles: string[];
  /** The certified profiles were re-derived from a signed discovery document (major 2 only). */
  derivabilityChecked: boolean;
  /** The opt-outs the signed rows record. */
  optedOut: string[];
  /** Certified profiles at major 1, which the v1 catalogue decides: undecidable here, never rejected. */
  undecidable: string[];
}

/**
 * The derivation rejections of docs/wire.md §12.5, and the profiles that certify. `document` is the
 * embedded discovery document when it hashes to the signed `discovery.sha256`, else undefined.
 */
export function deriveClaims(
  bundle: Json,
  rows: LedgerRow[],
  profiles: Json[],
  document: Json | undefined,
  reject: (kind: RejectionKind, detail: string, profile?: string) => void,
): DerivedClaims {
  const host = isJsonObject(bundle.host) ? bundle.host : {};
  const targetMajor = isJsonObject(bundle.suite) ? bundle.suite.targetMajor : undefined;
  const ids = profiles.map((p) => (typeof p.id === 'string' ? p.id : show(p.id)));

  // The host the bundle names is the host the signed discovery describes.
  if (document !== undefined) {
    const implementation = isJsonObject(document.implementation) ? document.implementation : {};
    for (const member of ['name', 'version', 'vendor'] as const) {
      const stated = implementation[member];
      // A build suffix on host.version (`0.1.0+side-rev-…`, SemVer §10) names a build of the
      // version discovery states, so it is no mismatch.
      const same = (value: unknown): boolean => value === stated || (member === 'version' && typeof value === 'string' && value.startsWith(`${stated}+`));
      if (typeof stated === 'string' ? !same(host[member]) : member === 'vendor' && host.vendor !== undefined) {
        reject('host-mismatch', `host.${member} is ${show(host[member])}, but the signed discovery document states implementation.${member} ${show(stated)}`);
      }
    }
  }

  // A relaxed profile does not certify, and neither does anything in a bundle with a blocked row.
  const obligations = Array.isArray(host.relaxations) ? host.relaxations.filter(isJsonObject).map((r) => String(r.obligation)) : [];
  const relaxed = profilesRelaxedBy(obligations, ids);
  const certified: string[] = [];
  for (const [i, profile] of profiles.entries()) {
    if (profile.certified !== true) continue;
    if (relaxed.has(ids[i]!))
      reject(
        'relaxed-profile-certified',
        `profile ${ids[i]} is marked certified while a relaxation on one of its families is declared (${obligations.join(', ')})`,
        ids[i],
      );
    else certified.push(ids[i]!);
  }
  // An empty profile is not certifiable (docs/wire.md §11 "Empty profiles").
  for (const profile of profiles) {
    const witnesses = profile.witnessCount;
    if (profile.certified === true && !(typeof witnesses === 'number' && witnesses >= 1)) {
      reject(
        'profile-unwitnessed',
        `profile ${show(profile.id)} is marked certified with witnessCount ${show(witnesses)}; a profile nothing witnessed certifies nothing`,
        typeof profile.id === 'string' ? profile.id : undefined,
      );
    }
  }
  const blocked = rows.filter((row) => row.result === 'blocked').length;
  if (blocked > 0 && certified.length > 0) {
    reject(
      'blocked-certified',
      `${blocked} row(s) are blocked, yet ${certified.join(', ')} ${certified.length === 1 ? 'is' : 'are'} marked certified; a bundle with a blocked row certifies nothing`,
    );
  }

  const rung = rungProblem(isJsonObject(bundle.durability) ? bundle.durability.rung : undefined, rows);
  if (rung !== undefined) reject('rung-not-derivable', rung);

  const optedOut = optedOutFromRows(rows);
  // At major 2 the table here is the whole upstream v2 registry (spec/v2/profiles.json), so an id
  // outside it is not derivable; at major 1 the v1 catalogue decides, which is not encoded here.
  const undecidable = targetMajor === 2 ? [] : [...certified];
  let derivabilityChecked = false;
  if (document !== undefined && targetMajor === 2) {
    derivabilityChecked = true;
    for (const name of optedOut) {
      if (advertises(document, name, targetMajor)) {
        reject(
          'opted-out-but-advertised',
          `${name} is recorded as an operator opt-out, but the signed discovery document advertises it; a host never both advertises and opts out`,
        );
      }
    }
    for (const id of certified) {
      if (undecidable.includes(id)) continue;
      if (profileDerivable(document, id, targetMajor) !== true) {
        reject('profile-not-derivable', `profile ${id} is marked certified, but the signed discovery document does not derive it at major 2`, id);
      }
    }
  }
  return { certifiedProfiles: certified, derivabilityChecked, optedOut, undecidable };
}
