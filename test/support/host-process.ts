// The practice host as a user starts it: the `host` command (commands/host.ts) in a child process,
// through the package's own entry, on a port the system picks. Its base URL and both tenants' keys
// are read from what it prints, as a user reads them.

import { spawn } from 'node:child_process';
import { packagePath } from '../../lib/package-root.ts';

export interface HostProcess {
  baseUrl: string;
  tenants: { a: { apiKey: string }; b: { apiKey: string } };
  /** Everything it printed up to the line that says it is ready. */
  banner: string;
  close(): Promise<void>;
}

/**
 * Starts `openwop-eval-conformance host --port 0 …args`, this checkout's or, given `command`, an
 * installed one; rejects with what it printed if it is not ready within `timeoutMs`.
 */
export function startHostProcess(
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; command?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<HostProcess> {
  const [file, ...entry] = options.command === undefined ? [process.execPath, packagePath('bin/openwop-eval-conformance.mjs')] : [options.command];
  const child = spawn(file!, [...entry, 'host', '--port', '0', ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  let errors = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void close();
      reject(new Error(`the host command ${why}:\n${banner}${errors}`));
    };
    const timer = setTimeout(() => fail('was not ready in time'), options.timeoutMs ?? 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const early = (code: number | null) => fail(`exited ${code}`);
    child.once('exit', early);
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      // The last line of its banner: everything above it is printed.
      if (!/^database: /m.test(banner)) return;
      clearTimeout(timer);
      child.off('exit', early);
      const baseUrl = /^reference host listening on (\S+)$/m.exec(banner)?.[1];
      const a = /^tenant A: \S+ {2}key (\S+)$/m.exec(banner)?.[1];
      const b = /^tenant B: \S+ {2}key (\S+)$/m.exec(banner)?.[1];
      if (baseUrl === undefined || a === undefined || b === undefined) return fail('printed no base URL or tenant keys');
      resolve({ baseUrl, tenants: { a: { apiKey: a }, b: { apiKey: b } }, banner, close });
    });
  });
}
