// Where `run` keeps the development signing key of the embedded host
// (commands/support/run-settings.ts, README "Quickstart"): a folder of the user's, never the
// package folder.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../lib/package-root.ts';
import { devKeyDir } from '../commands/support/run-settings.ts';

describe('the development key folder', () => {
  it('is OPENWOP_DEV_KEY_DIR when set, whatever XDG_CONFIG_HOME says', () => {
    expect(devKeyDir({ OPENWOP_DEV_KEY_DIR: '/tmp/keys', XDG_CONFIG_HOME: '/tmp/config' })).toBe('/tmp/keys');
  });

  it('is under XDG_CONFIG_HOME when set, else under ~/.config, and never under the package folder', () => {
    expect(devKeyDir({ XDG_CONFIG_HOME: '/tmp/config' })).toBe('/tmp/config/openwop-eval-conformance');
    expect(devKeyDir({ XDG_CONFIG_HOME: '' })).toBe(join(homedir(), '.config', 'openwop-eval-conformance'));
    expect(devKeyDir({}).startsWith(PACKAGE_ROOT)).toBe(false);
  });
});
