// The vitest face of the scenarios: one test per leg, titled by its fact and tagged with its id.
// The rows come from the certify pipeline `run` uses (lib/certify.ts: observe → compare served
// facts → record), run once over the scenarios the adapter registers; each test then reports its
// own id's row. So a served fact another leg's run showed fails its id here exactly as under
// `run`. With OPENWOP_BASE_URL set, host legs run against that host; otherwise against the
// embedded reference host, as `run` does with no --base-url.
//
// A row maps onto vitest honestly: executed-fail and blocked fail the test (neither certifies),
// inapplicable and skipped are skips with their reason, never passes.

import { afterAll, describe, it } from 'vitest';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { certifyTarget, type EmbeddedHostFactory } from '../lib/certify.ts';
import type { HostAccess } from '../lib/ledger/target.ts';
import { TestBug } from '../lib/test-bug.ts';
import { runLegs } from '../lib/ledger/runner.ts';
import type { Scenario } from '../lib/ledger/scenario.ts';
import { given, readCaps, readRequireBehavior } from './support/run-settings.ts';
import { SETTING_FLAGS } from './support/setting-flags.ts';

/** How long the tests of one adapter may wait for the certification they share. */
const CERTIFY_TIMEOUT_MS = 600_000;

/** What a row is under vitest: a pass, a skip with its note, or a failure with its message. */
export type VitestVerdict = { kind: 'pass' } | { kind: 'skip'; note: string } | { kind: 'fail'; message: string };

export function vitestVerdict(row: LedgerRow | undefined): VitestVerdict {
  if (row === undefined) return { kind: 'fail', message: 'Test bug: the certification gave this leg no row' };
  if (row.result === 'executed-pass') return { kind: 'pass' };
  if (row.result === 'inapplicable' || row.result === 'skipped') return { kind: 'skip', note: `${row.result}: ${row.detail}` };
  return { kind: 'fail', message: `${row.result}: ${row.detail}` };
}

/** The host the adapter certifies, and how. */
export interface AdapterConnection {
  host: HostAccess;
  requireBehavior: boolean;
  /** The certification seed (random when absent, as under `run`). */
  seed?: string;
}

export type AdapterRows = { ok: true; rows: Map<string, LedgerRow> } | { ok: false; reason: string };

/**
 * The rows of `scenarios` as the adapter reports them: certified once through the `run`
 * pipeline; server-free scenarios alone need no host.
 */
export async function adapterRows(scenarios: Scenario[], connect: () => Promise<AdapterConnection>): Promise<AdapterRows> {
  const byId = (rows: LedgerRow[]) => new Map(rows.map((row) => [row.id, row]));
  if (scenarios.every((scenario) => scenario.legs.every((leg) => leg.serverFree))) return { ok: true, rows: byId(await runLegs(scenarios, undefined)) };
  const connection = await connect();
  // The memory caps of the environment (docs/certifying.md "Memory caps"), as `run` reads them.
  const caps = readCaps({});
  if (!caps.ok) throw new TestBug(caps.problem);
  const outcome = await certifyTarget({ ...connection, caps: caps.caps, names: SETTING_FLAGS, scenarios });
  if (!outcome.ok) return { ok: false, reason: `discovery of ${connection.host.baseUrl} failed: ${outcome.reason}` };
  return { ok: true, rows: byId(outcome.rows) };
}

/** Registers one test per leg of `scenarios`, each reporting its row of one shared certification. */
export function registerScenarios(scenarios: Scenario[]): void {
  let pending: Promise<AdapterRows> | undefined;
  let stop: (() => Promise<void>) | undefined;
  const certified = (): Promise<AdapterRows> => (pending ??= adapterRows(scenarios, () => connectFromEnvironment((close) => (stop = close))));
  afterAll(async () => {
    await stop?.();
  });
  for (const scenario of scenarios) {
    describe(scenario.file, () => {
      for (const leg of scenario.legs) {
        it(
          `${leg.title} [${leg.id}]`,
          async (ctx) => {
            const outcome = await certified();
            if (!outcome.ok) throw new Error(`blocked: ${outcome.reason}`);
            const verdict = vitestVerdict(outcome.rows.get(leg.id));
            if (verdict.kind === 'skip') ctx.skip(verdict.note);
            else if (verdict.kind === 'fail') throw new Error(verdict.message);
          },
          CERTIFY_TIMEOUT_MS,
        );
      }
    });
  }
}

let embedded: EmbeddedHostFactory | undefined;

/** The host the adapter certifies when OPENWOP_BASE_URL is unset (test/support/vitest-setup.ts). */
export function setEmbeddedHostFactory(factory: EmbeddedHostFactory | undefined): void {
  embedded = factory;
}

/** The host of the environment (OPENWOP_BASE_URL and its keys), or the embedded one, started here. */
async function connectFromEnvironment(onClose: (close: () => Promise<void>) => void): Promise<AdapterConnection> {
  const strict = readRequireBehavior(undefined);
  if (!strict.ok) throw new Error(strict.problem);
  const { requireBehavior } = strict;
  const baseUrl = given(undefined, 'OPENWOP_BASE_URL');
  if (baseUrl) {
    return {
      host: { baseUrl, apiKey: given(undefined, 'OPENWOP_API_KEY') ?? '', tenantBApiKey: given(undefined, 'OPENWOP_TEST_TENANT_B_API_KEY') },
      requireBehavior,
    };
  }
  if (embedded === undefined) throw new TestBug('OPENWOP_BASE_URL is unset and no embedded host was installed (test/support/vitest-setup.ts)');
  const host = await embedded({});
  onClose(() => host.close());
  return { host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey }, requireBehavior };
}
