// Every value the harness generates during one certification (ids no host holds, counter-key
// nonces, generated suites) derives from one seed, so a certification can be replayed: the seed
// is recorded in the report, the bundle and the archive, and `--seed` sets it again. Values are
// HMAC-SHA-256 of a label under the seed, so two labels never share a value and the order in
// which concurrent legs ask does not change what each gets.

import { createHmac, randomBytes } from 'node:crypto';
import { canonicalJson, sha256Hex } from './evidence/jcs.ts';

const SEED = /^[0-9a-f]{16,64}$/;

/** A fresh seed: 16 random bytes, lower-case hex. */
export function freshSeed(): string {
  return randomBytes(16).toString('hex');
}

/** `--seed explore`: a fresh seed for this run, to explore generated suites beyond the default ones. */
export const EXPLORE_SEED = 'explore';

/**
 * The default seed of a certification: derived from what is certified, so two certifications of
 * one host generate the same values and give the same rows (CONTRACT §6 "Same host, same
 * rows"). It is the SHA-256 of the host's discovery document in canonical JSON (RFC 8785) less
 * the members that change without the host changing: `signingKeys` (a key a process may mint at
 * start) and `fixtures` (which lists what earlier certifications seeded). First 16 bytes, hex.
 */
export function hostSeed(discovery: Record<string, unknown>): string {
  const { signingKeys: _keys, fixtures: _fixtures, ...certified } = discovery;
  return sha256Hex(canonicalJson(certified)).slice(0, 32);
}

/** Whether `value` is a seed `--seed` accepts: 16 to 64 lower-case hex digits. */
export function isSeed(value: string): boolean {
  return SEED.test(value);
}

/** The values of one certification, derived from its seed. */
export interface CertificationSeed {
  readonly seed: string;
  /** `bytes` bytes (at most 32) derived from `label`, lower-case hex. */
  hex(label: string, bytes?: number): string;
  /** A 32-bit unsigned integer derived from `label` (a PRNG seed for generated cases). */
  uint32(label: string): number;
}

export function certificationSeed(seed: string = freshSeed()): CertificationSeed {
  if (!isSeed(seed)) throw new RangeError(`not a seed (16 to 64 lower-case hex digits): ${JSON.stringify(seed)}`);
  const digest = (label: string) => createHmac('sha256', Buffer.from(seed, 'hex')).update(label, 'utf8').digest();
  return {
    seed,
    hex: (label, bytes = 12) =>
      digest(label)
        .subarray(0, Math.min(32, Math.max(1, bytes)))
        .toString('hex'),
    uint32: (label) => digest(label).readUInt32BE(0),
  };
}
