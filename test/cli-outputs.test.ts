// The files a run writes: folders made for them, and paths refused before any leg runs, in one
// line: one that cannot be written, two outputs on one file, an output on a file the run reads.
// (An output folder that cannot be made, under /proc, is test/cli-bounds.test.ts.)

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-outputs-'));
writeFileSync(join(dir, 'host.pem'), generateDevKeyPair().privateKeyPem);
writeFileSync(join(dir, 'a-file'), 'a file, not a folder\n');
mkdirSync(join(dir, 'a-folder'));

function expectOneLine(err: string): void {
  expect(err.trimEnd().split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/\n\s+at |Usage:/);
}

describe('output files', () => {
  it('are written into folders that did not exist', async () => {
    const report = join(dir, 'new', 'deeper', 'report.json');
    const junit = join(dir, 'new-junit', 'junit.xml');
    const { code } = await cli('run', '--offline', '--filter', '0081.suite-shape', '--report-json', report, '--junit', junit);
    expect(code).toBe(0);
    expect((JSON.parse(readFileSync(report, 'utf8')) as { rows: unknown[] }).rows).toHaveLength(1);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testcase [^>]*name="openwop\.requirement\.0081\.suite-shape: /);
  });

  const cases: Array<[string, () => string[], RegExp]> = [
    [
      '--junit under a file',
      () => ['--junit', join(dir, 'a-file', 'junit.xml')],
      /^openwop-eval-conformance: --junit .*a-file\/junit\.xml: cannot be written: a part of its folder path is a file$/,
    ],
    ['--report-json onto a folder', () => ['--report-json', join(dir, 'a-folder')], /--report-json .*a-folder: is a folder, not a file$/],
    [
      '--certify under a file',
      () => ['--certify', join(dir, 'a-file', 'b.json')],
      /--certify .*a-file\/b\.json: cannot be written: a part of its folder path is a file$/,
    ],
  ];
  if (process.platform === 'linux') {
    // Root passes every permission check and /proc takes no new file: only a write tells.
    cases.push([
      '--report-json where no file can be created',
      () => ['--report-json', '/proc/owec-probe.json'],
      /--report-json \/proc\/owec-probe\.json: cannot be written \(ENOENT\)$/,
    ]);
  }
  cases.push(
    [
      'two reports on one file',
      () => ['--html', join(dir, 'one.out'), '--junit', join(dir, 'one.out')],
      /^openwop-eval-conformance: --html .*one\.out: is also the file of --junit; give each output a file of its own$/,
    ],
    [
      'the archive on the bundle',
      () => ['--certify', join(dir, 'both.json'), '--archive', join(dir, 'both.json')],
      /^openwop-eval-conformance: --archive .*both\.json: is also the file of --certify; give each output a file of its own$/,
    ],
    [
      'a report on the signing key it reads',
      () => ['--certify', join(dir, 'signed.json'), '--signing-key', join(dir, 'host.pem'), '--signing-key-id', 'k', '--report-json', join(dir, 'host.pem')],
      /^openwop-eval-conformance: --report-json .*host\.pem: is also the file --signing-key reads; give each output a file of its own$/,
    ],
  );
  it('never writes a report over the signing key the run reads', async () => {
    const before = readFileSync(join(dir, 'host.pem'), 'utf8');
    const overKey = ['--signing-key', join(dir, 'host.pem'), '--signing-key-id', 'k', '--summary', join(dir, 'host.pem')];
    const { code } = await cli('run', '--filter', '0081.suite-shape', '--certify', join(dir, 'over-the-key.json'), ...overKey);
    expect(code).toBe(2);
    expect(readFileSync(join(dir, 'host.pem'), 'utf8')).toBe(before);
  });

  for (const [what, flags, message] of cases) {
    it(`refuses ${what} in one line, exit 2, before any leg runs`, async () => {
      const { code, out, err } = await cli('run', ...flags());
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err.trimEnd()).toMatch(message);
      expectOneLine(err);
    });
  }
});
