// The `host` command when it cannot start: one line, exit 2, and nothing left behind.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { packagePath } from '../lib/package-root.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-host-'));

describe('host that cannot start', () => {
  it('leaves no --write-signing-key file behind (the port is taken), so the same command runs once it is free', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    const keyFile = join(dir, 'never-published.pem');
    const { code, err } = await cli('host', '--port', port, '--write-signing-key', keyFile, '--signing-key-id', 'k');
    expect(code).toBe(2);
    expect(err).toMatch(/^openwop-eval-conformance: the reference host could not start: .*EADDRINUSE/);
    expect(existsSync(keyFile)).toBe(false);
    await new Promise((resolve) => taken.close(resolve));
  });

  it('takes an empty --port as no port number, not as 0 (a free port nobody asked for)', () => {
    // A child process with a bound: the old command started the host and waited for a signal.
    const run = spawnSync(process.execPath, [packagePath('bin/openwop-eval-conformance.mjs'), 'host', '--port', ''], {
      encoding: 'utf8',
      timeout: 30_000,
      killSignal: 'SIGKILL',
    });
    expect(run.signal, 'the host started and had to be stopped').toBeNull();
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('openwop-eval-conformance: --port: not a port number:  (see --help)\n');
  });
});
