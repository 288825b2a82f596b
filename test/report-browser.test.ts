// The HTML report as a person sees it, in headless Chromium (found by test/support/chromium.ts:
// OPENWOP_CHROMIUM, CHROME_PATH, else the usual paths; .ci/run installs Debian's package; outside
// CI a missing browser skips these tests with the reason, under CI=true it fails them): a real
// certification of the embedded reference host and of a known-bad host. The verdict and the
// totals are visible; the failed rows come first, each with its failing rules and what each check
// expected and observed, collapsible; rows have anchors and clauses link to the RFC's section; a
// filtered or interrupted run says so in a banner; the disposition filter hides the passed rows;
// and the page asks for nothing outside itself. With OPENWOP_REPORT_SCREENSHOT=docs/report.png
// the known-bad page's screenshot is written there for the README.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { chromiumOrSkipReason } from './support/chromium.ts';
import { cli, hostFlags } from './support/cli.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import type { RunReport } from '../lib/report/model.ts';

const CHROMIUM = chromiumOrSkipReason();
/** A known-bad host whose failures read well: two rows fail on the RFC 0244 §B passHatK formula. */
const KNOWN_BAD = 'pass-hat-k-biased';

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'owec-html-'));

beforeAll(async () => {
  if (CHROMIUM.path !== undefined) browser = await chromium.launch({ executablePath: CHROMIUM.path, args: ['--no-sandbox'] });
  // vitest's reporters list a skipped test without its note: the reason is said here, once.
  else console.warn(`the HTML report's browser tests are skipped: ${CHROMIUM.skip}`);
});

/** Skips the test, with the reason, when there is no browser (never under CI=true: see above). */
function needBrowser(ctx: TestContext): void {
  if (CHROMIUM.skip !== undefined) ctx.skip(CHROMIUM.skip);
}
afterAll(async () => {
  await browser?.close();
});

/** Opens a report file, recording every request the page makes and every console error. */
async function open(path: string): Promise<{ page: Page; requests: string[]; consoleErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(pathToFileURL(path).href);
  return { page, requests, consoleErrors };
}

/** Holds the page to what it must show of `report`, and to loading nothing but itself. */
async function checkPage(path: string, report: RunReport, verdict: string) {
  const seen = await open(path);
  const { page } = seen;
  await expect.poll(() => page.locator('#verdict').isVisible()).toBe(true);
  // The outcome first, counted (lib/report/outcome.ts), then the verdict in verify's words.
  expect(await page.locator('#verdict').textContent()).toMatch(new RegExp(`^(certified|partly certified|nothing certified|rejected): [^]*${verdict}`));
  for (const [result, member] of [
    ['executed-pass', 'executedPass'],
    ['executed-fail', 'executedFail'],
    ['inapplicable', 'inapplicable'],
  ] as const) {
    const label = page.locator('label', { has: page.locator(`#filter-${result}`) });
    expect(await label.isVisible(), result).toBe(true);
    expect(await label.locator('.count').textContent(), result).toBe(String(report.totals[member]));
  }
  expect(await page.locator('tr[data-result]').count()).toBe(report.rows.length);
  return seen;
}

describe('the HTML report in Chromium', () => {
  it('of the embedded reference host shows "certified", the totals, and hides the passed rows when asked', { timeout: 180_000 }, async (ctx) => {
    needBrowser(ctx);
    const run = await cli(
      'run',
      '--certify',
      join(dir, 'reference.bundle.json'),
      '--html',
      join(dir, 'reference.html'),
      '--report-json',
      join(dir, 'reference.json'),
    );
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as RunReport;
    expect(report.verdict.status).toBe('certified');
    const { page, requests, consoleErrors } = await checkPage(join(dir, 'reference.html'), report, 'certified: openwop-eval-suite-core, ');

    const passed = page.locator('tr[data-result="executed-pass"]');
    const others = page.locator('tr[data-result]:not([data-result="executed-pass"])');
    expect(await passed.count()).toBe(report.totals.executedPass);
    expect(await passed.first().isVisible()).toBe(true);
    await page.locator('#filter-executed-pass').uncheck();
    for (const row of await passed.all()) expect(await row.isVisible()).toBe(false);
    expect(await others.count()).toBeGreaterThan(0);
    expect(await others.first().isVisible()).toBe(true);
    await page.locator('#filter-executed-pass').check();
    expect(await passed.first().isVisible()).toBe(true);

    expect(requests).toEqual([pathToFileURL(join(dir, 'reference.html')).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it(`of the known-bad host ${KNOWN_BAD} shows "not certified", then its failures first, each readable`, { timeout: 180_000 }, async (ctx) => {
    needBrowser(ctx);
    const entry = KNOWN_BAD_HOSTS.find((host) => host.name === KNOWN_BAD);
    expect(entry, `${KNOWN_BAD} is no known-bad host`).toBeDefined();
    const key = generateDevKeyPair();
    writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
    const host = await startReferenceHost({
      log: () => {},
      ...entry!.options,
      port: 0,
      dbPath: ':memory:',
      signingKey: key.privateKeyPem,
      signingKeyId: 'known-bad-key',
    });
    let run: Awaited<ReturnType<typeof cli>>;
    try {
      run = await cli(
        'run',
        ...hostFlags(host),
        '--certify',
        join(dir, 'bad.bundle.json'),
        '--signing-key',
        join(dir, 'host.pem'),
        '--signing-key-id',
        'known-bad-key',
        '--host-build',
        'commit:0123456789abcdef',
        '--html',
        join(dir, 'bad.html'),
        '--report-json',
        join(dir, 'bad.json'),
      );
    } finally {
      await host.close();
    }
    expect(run.code, run.err).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'bad.json'), 'utf8')) as RunReport;
    expect(['partly-certified', 'nothing-certified']).toContain(report.verdict.status);
    expect(report.totals.executedFail).toBeGreaterThan(0);
    const html = readFileSync(join(dir, 'bad.html'), 'utf8');
    expect(html, 'the API key').not.toContain(host.tenants.a.apiKey);
    const { page, requests, consoleErrors } = await checkPage(join(dir, 'bad.html'), report, '(certified|nothing certified)');
    expect(await page.locator('#verdict').textContent()).toMatch(/not certified: openwop-eval-\S+ \(openwop\.requirement\.\S+: executed-fail/);

    const failing = report.rows.filter((row) => row.result === 'executed-fail');
    // The failures come first: their section is above the table of every row, and in row order.
    const findings = page.locator('#findings article.finding');
    expect(await findings.count()).toBe(failing.length + report.totals.blocked);
    expect((await page.locator('#findings').boundingBox())!.y).toBeLessThan((await page.locator('#all-rows').boundingBox())!.y);
    expect((await page.locator('#findings').boundingBox())!.y).toBeLessThan(900);
    for (const row of failing) {
      const card = page.locator(`article[id="finding-${row.id}"]`);
      expect(await card.isVisible(), row.id).toBe(true);
      // Its failing rules, as the row's evidence names them.
      for (const rule of row.evidence!.failedRules as string[]) expect(await card.locator('.rules code', { hasText: rule }).count(), rule).toBe(1);
      // Each check that compared values shows them side by side, pretty, and folds away.
      const compared = row.detail!.split('\n').filter((line) => /: expected .*, got |: does not hold; saw /.test(line));
      expect(compared.length, row.id).toBeGreaterThan(0);
      const details = card.locator('ul.checks details');
      expect(await details.count()).toBe(compared.length);
      const first = details.first();
      expect(await first.locator('.compare .label').allTextContents()).toEqual(
        /: expected .*, got /.test(compared[0]!) ? ['Expected', 'Observed'] : ['Observed'],
      );
      expect(await first.locator('.compare pre').first().isVisible()).toBe(true);
      await first.locator('summary').click();
      expect(await first.locator('.compare pre').first().isVisible()).toBe(false);
      await first.locator('summary').click();
      // The id links to the row's anchor in the table; the row's clause to the RFC's section.
      await card.locator('a.id').click();
      expect(new URL(page.url()).hash).toBe(`#row-${row.id}`);
      const line = page.locator(`tr[id="row-${row.id}"]`);
      expect(await line.isVisible(), row.id).toBe(true);
      expect(await line.evaluate((el) => el.matches(':target'))).toBe(true);
      expect(await line.locator('td.reason').textContent(), row.id).toContain(row.detail!.split('\n')[0]);
      const section = /^RFC (\d{4}) §([A-Z])/.exec(row.clause!)!;
      const href = await line.locator('td:nth-child(2) a').getAttribute('href');
      expect(href).toMatch(new RegExp(`^https://openwop\\.dev/rfcs/${section[1]}-[a-z0-9-]+\\.html#:~:text=%C2%A7${section[2]}%20%E2%80%94$`));
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    // The screenshot shows the page as it opens: the verdict, then the failures.
    const png = await page.screenshot();
    // With only the failures checked, they are all that is left of the table.
    for (const result of ['executed-pass', 'inapplicable', 'skipped', 'blocked']) await page.locator(`#filter-${result}`).uncheck();
    expect(await page.locator('tr[data-result]:visible').count()).toBe(failing.length);
    expect(await findings.first().isVisible()).toBe(true);
    for (const result of ['executed-pass', 'inapplicable', 'skipped', 'blocked']) await page.locator(`#filter-${result}`).check();
    expect(await page.locator('tr[data-result]:visible').count()).toBe(report.rows.length);

    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 900]);
    if (process.env.OPENWOP_REPORT_SCREENSHOT) writeFileSync(process.env.OPENWOP_REPORT_SCREENSHOT, png);
    expect(requests).toEqual([pathToFileURL(join(dir, 'bad.html')).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('of a filtered run cut short by its deadline says both in banners, above the rows', { timeout: 60_000 }, async (ctx) => {
    needBrowser(ctx);
    const path = join(dir, 'partial.html');
    const run = await cli('run', '--filter', 'summary-(served|shape)', '--run-deadline', '1', '--html', path, '--report-json', join(dir, 'partial.json'));
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'partial.json'), 'utf8')) as RunReport;
    expect(report.interrupted?.reason).toMatch(/run deadline of 1 ms/);
    const { page, requests, consoleErrors } = await open(path);
    expect(await page.locator('#banner-interrupted').textContent()).toMatch(
      /^Interrupted: the run deadline of 1 ms passed \(--run-deadline\)\. Every row not reached is blocked; this report is partial\.$/,
    );
    expect(await page.locator('#banner-filtered').textContent()).toBe(
      `Filtered: --filter "summary-(served|shape)" (read as a regular expression) kept 2 of ${report.filter!.total} requirement ids. A filtered run never certifies.`,
    );
    expect((await page.locator('#banner-filtered').boundingBox())!.y).toBeLessThan((await page.locator('#findings').boundingBox())!.y);
    expect(requests).toEqual([pathToFileURL(path).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('runs no script a host sent, and shows its text as text', async (ctx) => {
    needBrowser(ctx);
    const { htmlReport } = await import('../lib/report/html.ts');
    const hostile = '<script>window.pwned = 1</script><img src="http://127.0.0.1:9/x.png" onerror="window.pwned = 2">';
    const report: RunReport = {
      harnessVersion: '0.1.0',
      generatedAt: '2026-01-01T00:00:00.000Z',
      target: { offline: false, requireBehavior: false, baseUrl: 'http://127.0.0.1:9', implementation: hostile },
      verdict: {
        status: 'nothing-certified',
        text: `nothing certified; not certified: openwop-eval-trials (x: blocked: ${hostile})`,
        profiles: [{ id: 'openwop-eval-trials', certified: false, witnessCount: 0, denials: [{ id: 'x', reason: `blocked: ${hostile}` }], rows: [] }],
      },
      totals: { executedPass: 0, executedFail: 1, skipped: 0, inapplicable: 0, blocked: 0 },
      durationMs: 5,
      rows: [
        {
          id: 'openwop.requirement.0244.x',
          scenario: 'x.test.ts',
          result: 'executed-fail',
          assertions: 1,
          detail: hostile,
          title: hostile,
          clause: 'RFC 0244 §B',
          evidence: { echo: hostile, reproducer: 'reproducers/x-shrunk.json' },
          durationMs: 5,
        },
      ],
    };
    writeFileSync(join(dir, 'hostile.html'), htmlReport(report));
    const { page, requests, consoleErrors } = await open(join(dir, 'hostile.html'));
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('td.reason').textContent()).toBe(`${hostile} details`);
    expect(await page.locator('article.finding ul.checks').textContent()).toBe(hostile);
    // A reproducer the row names is linked beside its finding, relative to the report.
    expect(await page.locator('article.finding .reproducers a').getAttribute('href')).toBe('reproducers/x-shrunk.json');
    expect(requests).toEqual([pathToFileURL(join(dir, 'hostile.html')).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
