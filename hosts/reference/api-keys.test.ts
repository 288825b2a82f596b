// The tenant a presented API key names (api-keys.ts): exactly the held key's, whatever its length.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiKeys } from './api-keys.ts';

describe('the API keys a host holds', () => {
  it('name a tenant for its key exactly, and none for a prefix, an extension or another key', () => {
    const keys = new ApiKeys([
      { tenantId: 'a', apiKey: 'ow2k_a' },
      { tenantId: 'b', apiKey: 'k'.repeat(300) },
    ]);
    expect(keys.tenantOf('ow2k_a')).toBe('a');
    expect(keys.tenantOf('k'.repeat(300))).toBe('b');
    for (const other of ['ow2k_', 'ow2k_a_', 'ow2k_b', '', 'k'.repeat(299), 'k'.repeat(301), 'k'.repeat(5000)]) expect(keys.tenantOf(other)).toBeUndefined();
  });

  it('match a presented key to a held one exactly when the two are the same text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.string({ maxLength: 600 }), (held, presented) => {
        const keys = new ApiKeys([{ tenantId: 't', apiKey: held }]);
        expect(keys.tenantOf(held)).toBe('t');
        expect(keys.tenantOf(presented)).toBe(presented === held ? 't' : undefined);
      }),
      { numRuns: 300 },
    );
  });
});
