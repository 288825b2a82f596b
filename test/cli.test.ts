// The command line as a user meets it: `run --offline`, `grade` on good and bad files, unknown
// flags. Driven through `main` with captured output, the way the bin script calls it.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { fixture } from '../lib/fixtures.ts';
import { gradeRun, type EvalSuite } from '../lib/grader/index.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { EventLog } from './support/event-log.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-cli-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A hand-written log of the cost fixture: three trials at 0.004 USD each. */
function costLog() {
  const doc = fixture('conformance-eval-cost');
  const log = new EventLog({ token: 'cli-cost', suiteId: doc.suite.suiteId, suiteVersion: doc.suite.version, modes: ['golden'], taskCount: 1, trialCount: 3 });
  for (const i of [0, 1, 2])
    log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
  return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
}

describe('run --list', () => {
  it('prints every requirement id with its rules and the statements they witness, runs nothing, and exits 0', async () => {
    const { code, out } = await cli('run', '--list');
    expect(code).toBe(0);
    for (const leg of (await loadScenarios()).flatMap((s) => s.legs)) expect(out).toContain(leg.id);
    expect(out).toMatch(/^ {2}rule score-delta {2}RFC 0244 §F$/m);
    expect(out).toMatch(/witnesses RFC 0252 §C MUST NOT: the refusal echoes the supplied id/);
  });
});

describe('run --offline', () => {
  it('lists every server-free requirement id as executed-pass with its assertion count, and exits 0', async () => {
    const { code, out } = await cli('run', '--offline');
    expect(code).toBe(0);
    const serverFree = (await loadScenarios()).flatMap((s) => s.legs.filter((leg) => leg.serverFree).map((leg) => leg.id));
    expect(serverFree.length).toBeGreaterThanOrEqual(7);
    for (const id of serverFree) expect(out).toMatch(new RegExp(`^executed-pass +${id.replace(/\./g, '\\.')} \\([1-9][0-9]* assertions\\)$`, 'm'));
    expect(out).toMatch(/^totals: \d+ executed-pass, 0 executed-fail, 0 skipped, 0 inapplicable, 0 blocked$/m);
  });
});

describe('grade', () => {
  it('prints the reference grade of an NDJSON event log', async () => {
    const events = costLog();
    const suite = file('suite.json', JSON.stringify(fixture('conformance-eval-cost')));
    const ndjson = file('events.ndjson', events.map((e) => JSON.stringify(e)).join('\n'));
    const { code, out } = await cli('grade', '--suite', suite, '--events', ndjson);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(gradeRun(fixture('conformance-eval-cost').suite as unknown as EvalSuite, events))));
    expect(JSON.parse(out).passed).toBe(false);
  });

  it('reads a JSON array of events as well', async () => {
    const suite = file('bare-suite.json', JSON.stringify(fixture('conformance-eval-cost').suite));
    const { code, out } = await cli('grade', '--suite', suite, '--events', file('events.json', JSON.stringify(costLog())));
    expect(code).toBe(0);
    expect(JSON.parse(out).totalCostUsd).toBeCloseTo(0.012, 12);
  });

  const bad: Array<[string, () => string[], RegExp]> = [
    ['a missing suite file', () => ['--suite', join(dir, 'nope.json'), '--events', file('e1.json', '[]')], /nope\.json: cannot read the suite \(ENOENT\)/],
    ['a suite that is not JSON', () => ['--suite', file('s1.json', '{"suiteId": '), '--events', file('e2.json', '[]')], /s1\.json: the suite is not JSON/],
    [
      'a document that is not a suite',
      () => ['--suite', file('s2.json', '{"suiteId": "x"}'), '--events', file('e3.json', '[]')],
      /s2\.json: not an AgentEvalSuite/,
    ],
    [
      'an NDJSON line that is not JSON',
      () => [
        '--suite',
        file('s3.json', JSON.stringify(fixture('conformance-eval-cost').suite)),
        '--events',
        file('e4.ndjson', '{"type": "run.started"}\n{oops\n'),
      ],
      /e4\.ndjson:2: not a JSON event/,
    ],
    [
      'an event that is not a run event',
      () => ['--suite', file('s4.json', JSON.stringify(fixture('conformance-eval-cost').suite)), '--events', file('e5.json', '[{"type": "eval.scored"}]')],
      /e5\.json: event 0 is not a v2 run event/,
    ],
  ];
  for (const [what, args, message] of bad) {
    it(`refuses ${what} with one line naming the file, no stack trace, exit 2`, async () => {
      const { code, out, err } = await cli('grade', ...args());
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
      expect(err).not.toMatch(/\n\s+at /);
    });
  }
});

describe('run against a host that cannot be reached', () => {
  it('exits 2 with one line when discovery gets no answer, and never prints the key', async () => {
    const { code, out, err } = await cli('run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'ow2k_CANARY_unreachable');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^openwop-eval-conformance: cannot certify http:\/\/127\.0\.0\.1:9: transport-loss: /);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
    expect(err).not.toContain('CANARY');
  });

  it('exits 2 on a base URL that is not an http(s) URL', async () => {
    const { code, err } = await cli('run', '--base-url', 'not-a-url', '--api-key', 'k');
    expect(code).toBe(2);
    expect(err).toMatch(/--base-url \(or OPENWOP_BASE_URL\) must be an http\(s\) URL, got "not-a-url"/);
  });
});

describe('flags', () => {
  it('refuses an unknown flag with exit 2', async () => {
    const { code, err } = await cli('run', '--offline', '--no-such-flag');
    expect(code).toBe(2);
    expect(err).toMatch(/unknown option '--no-such-flag'/);
  });

  it('documents the exit codes in --help', async () => {
    const { code, out } = await cli('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/Exit codes:/);
    expect(out).toMatch(/^ {10}4 with --certify: the bundle is written but certifies nothing/m);
    expect(out).toMatch(/^ {10}130, 143 interrupted by SIGINT, by SIGTERM/m);
    expect(out).toMatch(/verify\s+0 authentic, and some eval profile certified; 1 rejected/);
    expect(out).toMatch(/3 not a bundle; 4 nothing\s+certified; 5 certified on its face/);
    expect(out).toMatch(/6 another suite's bundle: the eval verdict does not apply/);
  });
});
