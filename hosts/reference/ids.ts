// Identifiers of the reference host: minting, and the `~HH` path projection of tenant-bound ids
// (docs/wire.md §1.3, RFC 0184 §A.1).

import { randomFillSync } from 'node:crypto';

/** `<tenantId>/<opaque>`, the v2 runId grammar. */
export const RUN_ID_PATTERN = /^(anon:)?[A-Za-z0-9._~-]{1,128}\/[A-Za-z0-9._~-]{16,128}$/;
export const TENANT_ID_PATTERN = /^(anon:)?[A-Za-z0-9._~-]{1,128}$/;

const OPAQUE_BYTES = 16;
// Filled from the CSPRNG a pool at a time: one system call per 256 ids rather than one per id,
// which the profile of a certification showed to be the host's largest single cost.
const pool = Buffer.alloc(OPAQUE_BYTES * 256);
let poolOffset = pool.length;

/** 16 random bytes in base64url: 22 characters of `[A-Za-z0-9_-]`, inside the opaque grammar. */
export function mintOpaque(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('base64url', poolOffset, poolOffset + OPAQUE_BYTES);
  poolOffset += OPAQUE_BYTES;
  return id;
}

export function mintRunId(tenantId: string): string {
  return `${tenantId}/${mintOpaque()}`;
}

export function mintEventId(): string {
  return mintOpaque();
}

const UNRESERVED = /^[A-Za-z0-9._-]$/;

/** Encode: every UTF-8 byte outside `[A-Za-z0-9._-]` becomes `~` and two upper-case hex digits. */
export function projectId(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export type Unprojected = { ok: true; id: string } | { ok: false; reason: string };

const HEX2 = /^[0-9A-Fa-f]{2}$/;
const TILDE = 0x7e;

/**
 * Decode a projected path segment. A `~` not followed by two hex digits, or bytes that are not
 * UTF-8, are refused (the caller answers `400 validation_error`).
 */
export function unprojectId(segment: string): Unprojected {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    const unit = segment.charCodeAt(i);
    if (unit === TILDE) {
      const hex = segment.slice(i + 1, i + 3);
      if (!HEX2.test(hex)) return { ok: false, reason: 'a "~" in the id is not followed by two hex digits' };
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (unit < 0x80) {
      // An ASCII character is its own byte: no encoder for the common case.
      bytes.push(unit);
    } else {
      for (const b of Buffer.from(segment[i] as string, 'utf8')) bytes.push(b);
    }
  }
  const buf = Buffer.from(bytes);
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) return { ok: false, reason: 'the projected id is not UTF-8' };
  return { ok: true, id: text };
}
