// The guard of ./support/env-guard.ts: it names each variable set, changed or removed, and no value.

import { describe, expect, it } from 'vitest';
import { envChanges } from './support/env-guard.ts';

describe('the environment guard after each test file', () => {
  it('names a variable set, changed or removed, and nothing when all is put back', () => {
    const before = { A: '1', B: 'two', C: 'ow2k_secret' };
    expect(envChanges(before, { ...before })).toEqual([]);
    expect(envChanges(before, { ...before, D: 'new' })).toEqual(['D']);
    expect(envChanges(before, { ...before, B: 'three' })).toEqual(['B']);
    expect(envChanges(before, { A: '1', B: 'two' })).toEqual(['C']);
    expect(envChanges(before, { A: '1', B: 'two', C: undefined })).toEqual(['C']);
  });

  it('says names only: never a value, which may be a key', () => {
    expect(JSON.stringify(envChanges({ KEY: 'ow2k_secret' }, { KEY: 'ow2k_other' }))).not.toContain('ow2k');
  });
});
