// The HTML report as a person sees it, in headless Chromium (Debian's `chromium` package at
// /usr/bin/chromium; .ci/run installs it): a real certification of the embedded reference host
// and of a known-bad host. The verdict and the totals are visible, a failing row's reason is
// visible, the disposition filter hides the passed rows, and the page asks for nothing outside
// itself. With OPENWOP_REPORT_SCREENSHOT=docs/report.png the known-bad page's screenshot is
// written there for the README.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, hostFlags } from './support/cli.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import type { RunReport } from '../lib/report/model.ts';

const CHROMIUM = '/usr/bin/chromium';
/** A known-bad host whose failures read well: two rows fail on the RFC 0244 §B passHatK formula. */
const KNOWN_BAD = 'pass-hat-k-biased';

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'owec-html-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the HTML report test needs Debian's chromium package (apt-get install chromium)`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
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
  expect(await page.locator('#verdict').textContent()).toMatch(new RegExp(`^Verdict: ${verdict}`));
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
  it('of the embedded reference host shows "certified", the totals, and hides the passed rows when asked', { timeout: 180_000 }, async () => {
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

  it(`of the known-bad host ${KNOWN_BAD} shows "not certified" and each failing row's reason`, { timeout: 180_000 }, async () => {
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
    for (const row of failing) {
      const line = page.locator('tr[data-result="executed-fail"]', { hasText: row.id });
      expect(await line.isVisible(), row.id).toBe(true);
      expect(await line.locator('td.reason').textContent(), row.id).toContain(row.detail!.split('\n')[0]);
    }
    // With only the failures checked, they are all that is left to see.
    for (const result of ['executed-pass', 'inapplicable', 'skipped', 'blocked']) await page.locator(`#filter-${result}`).uncheck();
    expect(await page.locator('tr[data-result]:visible').count()).toBe(failing.length);
    // The screenshot shows the page as a reader looking for the failures leaves it.
    const png = await page.screenshot();
    for (const result of ['executed-pass', 'inapplicable', 'skipped', 'blocked']) await page.locator(`#filter-${result}`).check();
    expect(await page.locator('tr[data-result]:visible').count()).toBe(report.rows.length);

    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 900]);
    if (process.env.OPENWOP_REPORT_SCREENSHOT) writeFileSync(process.env.OPENWOP_REPORT_SCREENSHOT, png);
    expect(requests).toEqual([pathToFileURL(join(dir, 'bad.html')).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('runs no script a host sent, and shows its text as text', async () => {
    const { htmlReport } = await import('../lib/report/html.ts');
    const hostile = '<script>window.pwned = 1</script><img src="http://127.0.0.1:9/x.png" onerror="window.pwned = 2">';
    const report: RunReport = {
      harnessVersion: '0.1.0',
      generatedAt: '2026-01-01T00:00:00.000Z',
      target: { offline: false, requireBehavior: false, baseUrl: 'http://127.0.0.1:9', implementation: hostile },
      verdict: {
        status: 'nothing-certified',
        text: `nothing certified; not certified: openwop-eval-trials (x: blocked: ${hostile})`,
        profiles: [{ id: 'openwop-eval-trials', certified: false, witnessCount: 0, denials: [{ id: 'x', reason: `blocked: ${hostile}` }] }],
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
          evidence: { echo: hostile },
          durationMs: 5,
        },
      ],
    };
    writeFileSync(join(dir, 'hostile.html'), htmlReport(report));
    const { page, requests, consoleErrors } = await open(join(dir, 'hostile.html'));
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('td.reason').textContent()).toBe(hostile);
    expect(requests).toEqual([pathToFileURL(join(dir, 'hostile.html')).href]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});
