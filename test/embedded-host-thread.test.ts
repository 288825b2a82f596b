// The embedded reference host on a thread of its own (commands/support/reference-host.ts), which
// bin/ starts before the command loads: the built command certifies it there, a host that cannot
// start is the same one line and exit 2 as in the harness's thread (the in-process command, which
// the tests run from the sources), and a run refused before its host still ends.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { busyPort } from './support/busy-port.ts';
import { cli } from './support/cli.ts';

const { buildIsCurrent } = (await import(new URL('../bin/build-state.mjs', import.meta.url).href)) as { buildIsCurrent(): boolean };
const BIN = fileURLToPath(new URL('../bin/openwop-eval-conformance.mjs', import.meta.url));
const FILTER = ['--filter', '0081.summary-served'];
/** A host that cannot start: its port is taken (test/support/busy-port.ts). */
const badConfig = async () => ['--reference-host-config', JSON.stringify({ port: await busyPort() })];

function command(...args: string[]): { code: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [BIN, 'run', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

// Without a current build bin/ runs the sources, and the host stays in the harness's thread.
describe.runIf(buildIsCurrent())('the embedded host on its own thread (the build)', () => {
  it('is certified there: the row passes, exit 0', () => {
    const { code, out, err } = command(...FILTER);
    expect(err).toMatch(/^started the embedded reference host at http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toMatch(/^executed-pass +openwop\.requirement\.0081\.summary-served /m);
    expect(code).toBe(0);
  }, 120_000);

  it('that cannot start is the one line and exit 2 the in-process host gives', async () => {
    const bad = await badConfig();
    const threaded = command(...FILTER, ...bad);
    const inProcess = await cli('run', ...FILTER, ...bad);
    expect(threaded.code).toBe(2);
    expect(inProcess.code).toBe(2);
    // The listen's code crosses the thread: the port in use is named, not a harness bug.
    expect(threaded.err).toMatch(
      /^openwop-eval-conformance: the embedded reference host cannot listen on port \d+ of 127\.0\.0\.1: the port is in use \(EADDRINUSE\);/,
    );
    expect(threaded.err).toBe(inProcess.err);
  }, 120_000);

  // bin/ starts the host's thread before the command reads its flags; a run refused before it
  // asks for its host leaves that thread unused, and the process still ends (no timeout).
  it('refused before its host starts, ends with its exit 2, the early thread holding nothing open', () => {
    const { code, err } = command('--filter', 'no-such-requirement-id');
    expect(err).toMatch(/no requirement id was selected/);
    expect(err).not.toMatch(/started the embedded reference host/);
    expect(code).toBe(2);
  }, 120_000);
});
