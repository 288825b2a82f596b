// The reports of a run (lib/report/): the JSON report against its schema, the JUnit file, the
// Markdown summary and the HTML report, each rendered from real runs and from hostile rows. What
// a person sees in a browser is test/report-browser.test.ts.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { performance } from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';
import { cli } from './support/cli.ts';
import type { Scenario } from '../lib/ledger/scenario.ts';
import { runLegs } from '../lib/ledger/runner.ts';
import { Redactor } from '../lib/redact.ts';
import { LegClock } from '../lib/report/clock.ts';
import { htmlReport } from '../lib/report/html.ts';
import { junitXml, writeReports } from '../lib/report/index.ts';
import { markdownSummary } from '../lib/report/markdown.ts';
import { groupedRows, inPathOrder, placeOf, type ReportRow, type RunReport } from '../lib/report/model.ts';

const SCHEMA = JSON.parse(readFileSync(new URL('../schemas/report.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
const addFormats = addFormatsModule as unknown as { default?: (a: Ajv2020) => unknown } & ((a: Ajv2020) => unknown);
(typeof addFormats.default === 'function' ? addFormats.default : addFormats)(ajv);
const validateReport = ajv.compile(SCHEMA);
const schemaErrors = (value: unknown): string[] => (validateReport(value) ? [] : (validateReport.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

const tmp = (): string => mkdtempSync(join(tmpdir(), 'owec-report-'));
const readJson = (path: string): RunReport => JSON.parse(readFileSync(path, 'utf8')) as RunReport;

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>| *bold* `tick` &amp;\u0000\u001b[31m';

function syntheticReport(rows: ReportRow[], extra: Partial<RunReport> = {}): RunReport {
  const count = (result: string) => rows.filter((row) => row.result === result).length;
  return {
    harnessVersion: '0.1.0',
    generatedAt: '2026-01-01T00:00:00.000Z',
    target: { offline: false, requireBehavior: false, baseUrl: 'http://127.0.0.1:1234', implementation: '[host@1]', hostBuild: 'commit:abc' },
    verdict: {
      status: 'partly-certified',
      text: 'certified: openwop-eval-suite-core; not certified: openwop-eval-trials (openwop.requirement.0244.x: executed-fail)',
      profiles: [
        { id: 'openwop-eval-suite-core', certified: true, witnessCount: 3, denials: [], rows: [] },
        { id: 'openwop-eval-trials', certified: false, witnessCount: 0, denials: [{ id: 'openwop.requirement.0244.x', reason: 'executed-fail' }], rows: [] },
      ],
    },
    totals: {
      executedPass: count('executed-pass'),
      executedFail: count('executed-fail'),
      skipped: count('skipped'),
      inapplicable: count('inapplicable'),
      blocked: count('blocked'),
    },
    durationMs: 1234,
    rows,
    ...extra,
  };
}

const passRow: ReportRow = {
  id: 'openwop.requirement.0081.suite-shape',
  scenario: 'a.test.ts',
  result: 'executed-pass',
  assertions: 3,
  title: 'the suite is well-formed',
  clause: 'RFC 0081 §A, §D',
  durationMs: 12,
};
const failRow: ReportRow = {
  id: 'openwop.requirement.0244.trial-stats-formula',
  scenario: 'b.test.ts',
  result: 'executed-fail',
  assertions: 4,
  detail: `[host@1] RFC 0244 §B passHatK: expected 0.4, got 0.41 ${HOSTILE}\nsecond line`,
  evidence: { failedRules: ['pass-hat-k'], echo: HOSTILE },
  title: `passHatK follows the formula ${HOSTILE}`,
  clause: 'RFC 0244 §B',
  durationMs: 1500,
};
const skippedRow: ReportRow = {
  id: 'openwop.requirement.0252.live-shadow-refused',
  scenario: 'b.test.ts',
  result: 'skipped',
  assertions: 0,
  detail: 'not advertised',
  title: 't',
  clause: 'RFC 0252 §B',
  durationMs: 0,
};

describe('the JSON report', () => {
  it('of a run --offline and of a partial certification validates against schemas/report.schema.json', { timeout: 120_000 }, async () => {
    const dir = tmp();
    const offline = await cli('run', '--offline', '--report-json', join(dir, 'offline.json'));
    expect(offline.code, offline.err).toBe(0);
    const partial = await cli('run', '--filter', '0244.trials', '--certify', join(dir, 'bundle.json'), '--report-json', join(dir, 'partial.json'));
    // A filtered run certifies nothing (exit 4).
    expect(partial.code, partial.err).toBe(4);
    for (const name of ['offline.json', 'partial.json']) {
      const report = readJson(join(dir, name));
      expect(schemaErrors(report), name).toEqual([]);
      expect(report.harnessVersion).toBe((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
      expect(report.rows.length).toBeGreaterThan(0);
      for (const row of report.rows) expect(row.title, row.id).toEqual(expect.any(String));
    }
    expect(readJson(join(dir, 'offline.json')).verdict.status).toBe('no-bundle');
    // An interrupted run's report carries what stopped it (test/deadlines.test.ts writes one).
    expect(schemaErrors({ interrupted: { reason: 'SIGINT received' }, ...readJson(join(dir, 'offline.json')) })).toEqual([]);
    expect(schemaErrors({ interrupted: {}, ...readJson(join(dir, 'offline.json')) })).not.toEqual([]);
    // A filtered run never certifies: `verify` says so in these words, and so does the report.
    const verdict = readJson(join(dir, 'partial.json')).verdict;
    expect(verdict.status).toBe('nothing-certified');
    expect(verdict.text).toMatch(
      /^nothing certified; not certified: openwop-eval-suite-core \(\S+: no row: a filtered or partial run certifies nothing it did not run/,
    );
    expect(partial.out).toContain(`\neval verdict: ${verdict.text}\n`);
    // The bundle's rows are the ledger rows: no title, clause or duration ever enters them.
    const bundle = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as { results: { requirements: Array<Record<string, unknown>> } };
    for (const row of bundle.results.requirements)
      expect(
        Object.keys(row).filter((k) => ['title', 'clause', 'durationMs'].includes(k)),
        String(row.id),
      ).toEqual([]);
  });

  it('schema takes a verdict no published key backs, in the words verify prints (self-attested or unverified, with why)', () => {
    const partly = syntheticReport([passRow, failRow]);
    partly.verdict = { ...partly.verdict, attestation: 'self-attested', text: `self-attested (signed with a development key): ${partly.verdict.text}` };
    expect(schemaErrors(partly)).toEqual([]);
    const certified = syntheticReport([passRow]);
    certified.verdict = {
      status: 'certified',
      attestation: 'unverified',
      text: 'unverified (no key was given): certified: openwop-eval-suite-core',
      profiles: certified.verdict.profiles.slice(0, 1),
    };
    expect(schemaErrors(certified)).toEqual([]);
    // The attestation and the words agree: one without the other is refused.
    expect(schemaErrors({ ...certified, verdict: { ...certified.verdict, text: 'certified: openwop-eval-suite-core' } })).not.toEqual([]);
    const { attestation: _dropped, ...bare } = certified.verdict;
    expect(schemaErrors({ ...certified, verdict: bare })).not.toEqual([]);
  });

  it('schema refuses a broken report: each defect on its own', () => {
    const good = syntheticReport([passRow, failRow, skippedRow]);
    expect(schemaErrors(good)).toEqual([]);
    const broken: Array<[string, (r: Record<string, any>) => void]> = [
      ['no harnessVersion', (r) => delete r.harnessVersion],
      ['a negative duration', (r) => (r.rows[0].durationMs = -1)],
      ['a row without its duration', (r) => delete r.rows[0].durationMs],
      ['a failed row without a reason', (r) => delete r.rows[1].detail],
      ['a pass without assertions', (r) => (r.rows[0].assertions = 0)],
      ['an unknown disposition', (r) => (r.rows[2].result = 'passed')],
      ['certified in words that deny', (r) => (r.verdict.status = 'certified')],
      ['a denied profile without a denial', (r) => (r.verdict.profiles[1].denials = [])],
      ['a certified profile with a denial', (r) => (r.verdict.profiles[0].denials = [{ id: 'x', reason: 'y' }])],
      ['nothing certified in words that certify', (r) => (r.verdict.status = 'nothing-certified')],
      ['an unknown verdict', (r) => (r.verdict = { status: 'approved', text: 'x', profiles: [] })],
      ['a member the schema does not know', (r) => (r.apiKey = 'x')],
      ['a host build of no kind', (r) => (r.target.hostBuild = 'abc')],
    ];
    for (const [defect, edit] of broken) {
      const copy = structuredClone(good) as Record<string, any>;
      edit(copy);
      expect(schemaErrors(copy), defect).not.toEqual([]);
    }
  });
});

describe('the JUnit file', () => {
  it("gives a failure the row's reason as its message, the title in the name, a time on every testcase and suite, and the run's properties", () => {
    const xml = junitXml(syntheticReport([passRow, failRow, skippedRow]));
    const failure = /<failure type="executed-fail" message="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    expect(failure, xml).not.toBeNull();
    expect(failure![1]).toMatch(/^\[host@1\] RFC 0244 §B passHatK: expected 0\.4, got 0\.41 &lt;script&gt;/);
    expect(failure![1]).not.toContain('second line');
    expect(failure![2]).toContain('second line');
    expect(xml).toContain('name="openwop.requirement.0081.suite-shape: the suite is well-formed"');
    expect(xml).toMatch(/<testcase [^>]*name="openwop\.requirement\.0244\.trial-stats-formula[^"]*" time="1\.500"/);
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<testcase [^>]* time="\d+\.\d{3}"/g)).toHaveLength(3);
    expect(xml).toMatch(/<testsuite name="b\.test\.ts" [^>]*time="1\.500"/);
    expect(xml).toMatch(/<testsuites [^>]*time="1\.234"/);
    for (const property of [
      'harness.version" value="0.1.0"',
      'target.baseUrl" value="http://127.0.0.1:1234"',
      'target.hostBuild" value="commit:abc"',
      // The eval verdict in verify's words.
      'verdict" value="certified: openwop-eval-suite-core; not certified: openwop-eval-trials (openwop.requirement.0244.x: executed-fail)"',
    ]) {
      expect(xml).toContain(`<property name="${property}/>`);
    }
    // Escaped markup and no character XML 1.0 refuses.
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('<img');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 §2.2 forbids are what is looked for
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it('clips a long first line of a reason in the message', () => {
    const long = { ...failRow, detail: 'x'.repeat(5_000) };
    const message = /message="([^"]*)"/.exec(junitXml(syntheticReport([long])))![1]!;
    expect(message.length).toBe(200);
    expect(message.endsWith('…')).toBe(true);
  });

  it('clips the implementation name the properties repeat per suite, so a host’s 1 MB name is not written once per scenario file', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ ...passRow, id: `openwop.requirement.0081.x${i}`, scenario: `scenarios/s${i}.ts` }));
    const xml = junitXml(syntheticReport(rows, { target: { offline: false, requireBehavior: false, implementation: `[${'N'.repeat(1_000_000)}@1]` } }));
    expect(xml.length).toBeLessThan(100_000);
    expect(xml).toMatch(/<property name="target\.implementation" value="\[N{498}…"\/>/);
  });
});

describe('the Markdown summary', () => {
  it('states the verdict and totals, and lists each row that did not pass with its reason as one escaped table line', () => {
    const md = markdownSummary(syntheticReport([passRow, failRow, skippedRow]));
    // The outcome first, counted, before any profile is named; then the verdict in verify's words.
    expect(md).toMatch(/^## OpenWOP eval conformance: partly certified: 1 of 2 profiles$/m);
    expect(md).toMatch(
      /^Verdict: certified: openwop-eval-suite-core; not certified: openwop-eval-trials \\\(openwop\.requirement\.0244\.x: executed-fail\\\)$/m,
    );
    expect(md).toContain('- openwop-eval-trials: openwop.requirement.0244.x: executed-fail');
    expect(md).toContain('| 1 | 0 | 1 | 0 | 1 |');
    const lines = md.split('\n').filter((line) => line.startsWith('| `openwop.requirement.'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('executed-fail');
    expect(lines[0]).toContain('passHatK: expected 0.4, got 0.41');
    expect(md).not.toContain('suite-shape');
    // The failures first; the rows that did not run apart, folded, never among them.
    expect(md.indexOf('### Failed and blocked (1)')).toBeLessThan(md.indexOf(lines[0]!));
    expect(md.indexOf('<details><summary>Not run: skipped or inapplicable (1)</summary>')).toBeGreaterThan(md.indexOf(lines[0]!));
    expect(md.indexOf('<details>')).toBeLessThan(md.indexOf(lines[1]!));
    // The hostile reason cannot open a cell, a tag or a code span of its own.
    expect(lines[0]!.split(/(?<!\\)\|/)).toHaveLength(6);
    expect(md).not.toMatch(/<(script|img)/);
    expect(md).toContain('&lt;script&gt;');
  });

  it('says every row passed when none failed, and names a run with no bundle', () => {
    const md = markdownSummary(syntheticReport([passRow], { verdict: { status: 'no-bundle', text: 'no verdict: no --certify was given', profiles: [] } }));
    expect(md).toMatch(/^## OpenWOP eval conformance: no verdict: no --certify was given$/m);
    expect(md).toContain('Every row passed.');
    expect(md).not.toContain('did not pass');
  });
});

describe('the HTML report', () => {
  it('escapes every text a host sent and refers to nothing outside itself', () => {
    const html = htmlReport(syntheticReport([passRow, failRow, skippedRow]));
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<img|onerror=alert\(2\)>/);
    expect(html).not.toMatch(/<[a-z][^>]*\s(src|action|data)=/i);
    // Its links are anchors in the page and the RFC sections on the public OpenWOP site: navigation, never a load.
    const hrefs = [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.filter((href) => !href.startsWith('#') && !href.startsWith('https://openwop.dev/rfcs/'))).toEqual([]);
    expect(html).not.toMatch(/@import|url\(/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toMatch(/content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/]+=*'"/);
    // The outcome first, counted, before any profile is named; then the verdict in verify's words.
    expect(html).toContain(
      'id="verdict">partly certified: 1 of 2 profiles<div class="verdict-text">certified: openwop-eval-suite-core; not certified: openwop-eval-trials',
    );
    expect(html).toContain('<title>OpenWOP eval conformance: partly certified: 1 of 2 profiles</title>');
    expect(html.match(/<tr data-result=/g)).toHaveLength(3);
  });

  it('groups the rows by RFC, then section, from the first clause each names', () => {
    expect(placeOf('RFC 0244 §B, §D')).toEqual({ rfc: 'RFC 0244', section: '§B' });
    expect(placeOf('RFC 0252 §C ("whose calls")')).toEqual({ rfc: 'RFC 0252', section: '§C' });
    expect(placeOf('CONTRACT §5')).toEqual({ rfc: 'other', section: '' });
    const groups = groupedRows([skippedRow, failRow, passRow, { ...passRow, id: 'openwop.requirement.0244.a', clause: 'RFC 0244 §A' }]);
    expect(groups.map((g) => [g.rfc, g.sections.map((s) => s.section)])).toEqual([
      ['RFC 0081', ['§A']],
      ['RFC 0244', ['§A', '§B']],
      ['RFC 0252', ['§B']],
    ]);
  });
});

describe('writing the reports', () => {
  it('takes every secret out of every report, in whatever form the rendering gives it', () => {
    const dir = tmp();
    const secret = 'sk-"SECRET"<&>|key_0123';
    const leaky = syntheticReport([{ ...failRow, detail: `you sent Bearer ${secret}`, title: `t ${secret}`, evidence: { [secret]: secret } }], {
      target: { offline: false, requireBehavior: false, baseUrl: `http://user:${encodeURIComponent(secret)}@127.0.0.1:1`, implementation: secret },
      verdict: {
        status: 'nothing-certified',
        text: `nothing certified; not certified: openwop-eval-trials (x: blocked: because ${secret})`,
        profiles: [{ id: 'openwop-eval-trials', certified: false, witnessCount: 0, denials: [{ id: 'x', reason: `blocked: because ${secret}` }], rows: [] }],
      },
    });
    const paths = { reportJson: join(dir, 'r.json'), junit: join(dir, 'j.xml'), html: join(dir, 'r.html'), summary: join(dir, 's.md') };
    const errors: string[] = [];
    expect(writeReports(paths, leaky, new Redactor([secret]), { err: (s) => errors.push(s) })).toBe(true);
    expect(errors).toEqual([]);
    for (const path of Object.values(paths)) {
      const text = readFileSync(path, 'utf8');
      expect(text, path).toMatch(/\\?\[redacted\\?\]/);
      expect(text, path).not.toMatch(/SECRET|key_0123/);
    }
  });

  it('refuses, in one line and before any leg, a report path that cannot be written', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a-file'), '');
    const run = await cli('run', '--offline', '--html', join(dir, 'a-file', 'r.html'), '--summary', join(dir, 's.md'));
    expect(run.code).toBe(2);
    expect(run.err.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^openwop-eval-conformance: --html .*a-file.*r\.html: cannot be written: a part of its folder path is a file$/),
    ]);
    expect(run.out).toBe('');
  });

  it('appends the summary to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const file = join(tmp(), 'step-summary.md');
    writeFileSync(file, 'an earlier step\n');
    const before = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = file;
    try {
      const run = await cli('run', '--offline', '--filter', 'suite-shape');
      expect(run.code, run.err).toBe(0);
    } finally {
      if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = before;
    }
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^an earlier step\n## OpenWOP eval conformance: no verdict: --offline runs no host leg, so it cuts no bundle\n/);
    expect(text).toContain('Every row passed.');
  });
});

describe('the leg clock', () => {
  it("gives each row its own leg's wall time, 0 to a leg that never started, and leaves the rows as the runner made them", async () => {
    // A clock that moves only when told: leg a takes 500, leg b 10, and 10 pass between rows.
    let t = 1000;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => t);
    try {
      const leg = (id: string, takes: number) => ({
        id,
        title: id,
        clause: 'RFC 0081 §A',
        serverFree: true as const,
        run: (check: { ok(c: boolean, rule: string): boolean }) => {
          t += takes;
          check.ok(true, 'r');
        },
      });
      const scenarios: Scenario[] = [{ file: 'x.test.ts', legs: [leg('openwop.requirement.0081.a', 500), leg('openwop.requirement.0081.b', 10)] }];
      const clock = new LegClock();
      t += 10;
      const rows = await runLegs(clock.wrap(scenarios), undefined, {
        onRow: (row) => {
          clock.finished(row.id);
          t += 10;
        },
      });
      clock.finished('openwop.requirement.0081.never-started');
      expect(Object.fromEntries(clock.durations())).toEqual({
        'openwop.requirement.0081.a': 500,
        'openwop.requirement.0081.b': 10,
        'openwop.requirement.0081.never-started': 0,
      });
      expect(clock.elapsedMs()).toBe(540);
      expect(rows).toEqual(await runLegs(scenarios, undefined));
    } finally {
      now.mockRestore();
    }
  });
});

describe('the order of the rows in a report', () => {
  it('is the path order, RFC then section, each module in its legs order; the run order is kept within a module', () => {
    const row = (id: string, scenario: string) => ({ id, scenario });
    const ran = [
      row('0244.b-one', 'v2-eval-trajectory-trials/0244-b-trials.ts'),
      row('0081.c-one', 'v2-eval-run-surface/0081-c-eval-run.ts'),
      row('0252.a-one', 'v2-eval-recorded-fixtures/0252-a-needs-fixture-matching.ts'),
      row('0081.a-shape', 'agent-eval-suite-shape/0081-a-suite-shape.ts'),
      row('0244.b-two', 'v2-eval-trajectory-trials/0244-b-trials.ts'),
      row('0081.c-two', 'v2-eval-run-surface/0081-c-eval-run.ts'),
      row('0244.a-one', 'v2-eval-trajectory-trials/0244-a-trajectory.ts'),
    ];
    expect(inPathOrder(ran).map((r) => r.id)).toEqual(['0081.a-shape', '0081.c-one', '0081.c-two', '0244.a-one', '0244.b-one', '0244.b-two', '0252.a-one']);
  });
});
