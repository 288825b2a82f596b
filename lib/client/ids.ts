// The `~HH` path projection of RFC 0184 §A.1 (docs/wire.md §1.3). A tenant-bound id such as
// `tenant/opaque` carries `/`, so it is projected before it becomes one path segment: each UTF-8
// byte outside `[A-Za-z0-9._-]` becomes `~` and two upper-case hex digits.

const encoder = new TextEncoder();

function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    byte === 0x2e || // .
    byte === 0x5f || // _
    byte === 0x2d // -
  );
}

/** Whether every character of `text` is one a projection leaves bare: then the text is its own projection, and its own reversal. */
function bare(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isUnreserved(text.charCodeAt(i))) return false;
  return true;
}

/** Projects an id into one path segment. A lone surrogate is encoded as U+FFFD (ids never hold one). */
export function projectId(id: string): string {
  // Most ids are bare already (every request names its run): no bytes to encode.
  if (bare(id)) return id;
  let out = '';
  // Every request naming a run projects its id: by index, not for-of (why: lib/json-value.ts
  // jsonDeepEqual).
  const bytes = encoder.encode(id);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    out += isUnreserved(byte) ? String.fromCharCode(byte) : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export type UnprojectResult = { ok: true; id: string } | { ok: false; reason: string };

const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;
/** Fatal on bytes that are not UTF-8; ignoreBOM keeps a leading U+FEFF as content. Each whole decode starts afresh, so one serves every call. */
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reverses `projectId`. A `~` not followed by two hex digits, a character a projection never
 * holds, or bytes that are not UTF-8 are refused (the host answers those `400 validation_error`).
 */
export function unprojectId(projected: string): UnprojectResult {
  // ASCII decodes to itself: a segment without `~` and of unreserved characters only is the id.
  if (bare(projected)) return { ok: true, id: projected };
  const bytes: number[] = [];
  for (let i = 0; i < projected.length; i++) {
    const ch = projected.charCodeAt(i);
    if (ch === 0x7e) {
      const pair = projected.slice(i + 1, i + 3);
      if (!HEX_PAIR.test(pair)) return { ok: false, reason: `'~' at offset ${i} is not followed by two hex digits` };
      bytes.push(Number.parseInt(pair, 16));
      i += 2;
    } else if (isUnreserved(ch)) {
      bytes.push(ch);
    } else {
      return { ok: false, reason: `character ${JSON.stringify(projected[i])} at offset ${i} is never left bare by the projection` };
    }
  }
  try {
    return { ok: true, id: strictDecoder.decode(new Uint8Array(bytes)) };
  } catch {
    return { ok: false, reason: 'the decoded bytes are not UTF-8' };
  }
}
