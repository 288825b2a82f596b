// The vitest face of a scenario: one test per leg, titled by its fact and tagged with its id.
// With OPENWOP_BASE_URL set, host legs run against that host; otherwise against the embedded
// reference host, started once per file, as `run` does with no --base-url.
//
// A row maps onto vitest honestly: executed-fail and blocked fail the test (neither certifies),
// inapplicable and skipped are skips with their reason, never passes.

import { sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../evidence/types.ts';
import { applyFindings } from './findings.ts';
import { runLeg } from './runner.ts';
import type { EmbeddedHostFactory } from '../certify.ts';
import { TestBug } from '../test-bug.ts';
import { neededFixtures, type Scenario } from './scenario.ts';
import { readCaps } from './caps.ts';
import { openTarget, seedMissingFixtures, type Target } from './target.ts';

/** True while vitest is collecting the scenario file `file` (a path under scenarios/). */
export function collecting(file: string): boolean {
  const path = expect.getState().testPath;
  return path?.split(sep).join('/').endsWith(`/scenarios/${file}`) === true;
}

export function registerScenario(scenario: Scenario): void {
  let pending: Promise<Target> | undefined;
  let stop: (() => Promise<void>) | undefined;
  const target = (): Promise<Target> => (pending ??= connect(scenario, (close) => (stop = close)));
  afterAll(async () => {
    await stop?.();
  });
  describe(scenario.file, () => {
    for (const leg of scenario.legs) {
      it(`${leg.title} [${leg.id}]`, async (ctx) => {
        const on = leg.serverFree ? undefined : await target();
        // Under vitest a row takes the findings known when its leg ends (those of this file's
        // earlier runs); `run` folds in every finding once all legs ran.
        const [row] = applyFindings([await runLeg(scenario.file, leg, on)], on?.findings) as [LedgerRow];
        if (row.result === 'executed-pass') return;
        if (row.result === 'inapplicable' || row.result === 'skipped') {
          ctx.skip(`${row.result}: ${row.detail}`);
          return;
        }
        throw new Error(`${row.result}: ${row.detail}`);
      });
    }
  });
}

let embedded: EmbeddedHostFactory | undefined;

/** The host a scenario file runs against when OPENWOP_BASE_URL is unset (test/support/vitest-setup.ts). */
export function setEmbeddedHostFactory(factory: EmbeddedHostFactory | undefined): void {
  embedded = factory;
}

/** Registers `scenario`'s legs as tests while vitest collects its file; other imports get none. */
export function registerIfCollecting(scenario: Scenario): void {
  // A test that imports scenarios to inspect or drive them (test/cli.test.ts, the kill matrix)
  // must not get their legs as tests.
  if (collecting(scenario.file)) registerScenario(scenario);
}

async function connect(scenario: Scenario, onClose: (close: () => Promise<void>) => void): Promise<Target> {
  const requireBehavior = process.env.OPENWOP_REQUIRE_BEHAVIOR === 'true';
  let baseUrl = process.env.OPENWOP_BASE_URL;
  let apiKey = process.env.OPENWOP_API_KEY ?? '';
  let tenantBApiKey = process.env.OPENWOP_TEST_TENANT_B_API_KEY;
  if (!baseUrl) {
    if (embedded === undefined) throw new TestBug('OPENWOP_BASE_URL is unset and no embedded host was installed (test/support/vitest-setup.ts)');
    const host = await embedded({});
    onClose(() => host.close());
    baseUrl = host.baseUrl;
    apiKey = host.tenants.a.apiKey;
    tenantBApiKey = host.tenants.b.apiKey;
  }
  // The memory caps of the environment (README "Memory caps"), as `run` reads them.
  const caps = readCaps({}, process.env);
  if (!caps.ok) throw new TestBug(caps.problem);
  const opened = await openTarget({
    baseUrl,
    apiKey,
    tenantBApiKey,
    requireBehavior,
    maxEvents: caps.caps.maxEvents,
    maxResponseBytes: caps.caps.maxResponseBytes,
    maxEventsInFlight: caps.caps.maxEventsInFlight,
    maxBytesInFlight: caps.caps.maxBytesInFlight,
  });
  if (!opened.ok) throw new Error(`blocked: discovery of ${baseUrl} failed: ${opened.reason}`);
  await seedMissingFixtures(opened.target, neededFixtures([scenario]));
  return opened.target;
}
