// The `~HH` path projection of tenant-bound ids (docs/wire.md §1.3, RFC 0184 §A.1), as pure
// functions.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryString } from '../../test/support/arbitraries.ts';
import { mintRunId, projectId, RUN_ID_PATTERN, unprojectId } from './ids.ts';

describe('the ~HH projection', () => {
  it('encodes / as ~2F, : as ~3A and ~ as ~7E, with upper-case hex', () => {
    expect(projectId('tenant-a/abc')).toBe('tenant-a~2Fabc');
    expect(projectId('anon:t/x~y')).toBe('anon~3At~2Fx~7Ey');
    expect(projectId('é')).toBe('~C3~A9');
  });

  it('round-trips every string, and a projection holds only [A-Za-z0-9._-] and ~HH', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 64 }), (s) => {
        const projected = projectId(s);
        expect(projected).toMatch(/^(?:[A-Za-z0-9._-]|~[0-9A-F]{2})*$/);
        expect(unprojectId(projected)).toEqual({ ok: true, id: s });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a ~ not followed by two hex digits', () => {
    for (const bad of ['~', 'a~2', 'a~2G', '~zz', 'tenant~/x']) expect(unprojectId(bad).ok).toBe(false);
    expect(unprojectId('a~2fb')).toEqual({ ok: true, id: 'a/b' });
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(unprojectId('~C3').ok).toBe(false);
    expect(unprojectId('~FF~FE').ok).toBe(false);
  });

  it('mints run ids of the v2 grammar under the tenant', () => {
    const id = mintRunId('tenant-a');
    expect(id).toMatch(RUN_ID_PATTERN);
    expect(id.startsWith('tenant-a/')).toBe(true);
  });
});
