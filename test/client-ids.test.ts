// The `~HH` projection of ids into a path segment (lib/client/ids.ts), its shortcut for bare ids
// and its one shared strict decoder held here against the projection spelled out byte by byte.

import { describe, expect, it } from 'vitest';
import { projectId, unprojectId } from '../lib/client/ids.ts';

/** The projection byte by byte, every id through the encoder: the oracle. */
function projected(id: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(id)) {
    const bare = /[A-Za-z0-9._-]/.test(String.fromCharCode(byte)) && byte < 0x80;
    out += bare ? String.fromCharCode(byte) : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const IDS = ['run_01HZX', 'tenant/opaque', 'a.b-c_d', '', '~', 'é', '\uFEFFlead', '日本', 'x y', 'A~41', '💡/x'];

describe('the id projection', () => {
  it('projects as the byte-by-byte projection does, and reverses it', () => {
    for (const id of IDS) {
      expect(projectId(id)).toBe(projected(id));
      expect(unprojectId(projectId(id))).toEqual({ ok: true, id });
    }
  });

  it('refuses what no projection holds, and decodes the next segment as if nothing had been refused', () => {
    expect(unprojectId('a~4')).toEqual({ ok: false, reason: "'~' at offset 1 is not followed by two hex digits" });
    expect(unprojectId('a/b')).toEqual({ ok: false, reason: 'character "/" at offset 1 is never left bare by the projection' });
    // A lead byte without its continuation, then one that is whole.
    expect(unprojectId('~C3')).toEqual({ ok: false, reason: 'the decoded bytes are not UTF-8' });
    expect(unprojectId('~C3~A9')).toEqual({ ok: true, id: 'é' });
    expect(unprojectId('~EF~BB~BFx')).toEqual({ ok: true, id: '\uFEFFx' });
  });
});
