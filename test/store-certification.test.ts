// The reference host certifies alike on either store (hosts/reference/store.ts): in memory, as
// every in-process certification runs it, and on a SQLite file, as `host --db FILE` runs it. The
// same seed gives the same rows, result and detail, none of them failed; the two stores' own
// agreement, read by read, is hosts/reference/store-agreement.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certifyTarget } from '../lib/certify.ts';
import { DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../lib/ledger/deadlines.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { MATRIX_SEED } from './support/matrix-harness.ts';
import { patientAll } from './support/slowness.ts';

const scenarios = await loadScenarios();
const dir = mkdtempSync(join(tmpdir(), 'openwop-store-certification-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each row's id, result and detail, certified on the store `dbPath` asks for. */
async function rows(dbPath: string | undefined): Promise<Map<string, { result: string; detail: string | undefined }>> {
  const host = await startReferenceHost({ log: () => {}, port: 0, ...(dbPath === undefined ? {} : { dbPath }) });
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
      requireBehavior: false,
      scenarios,
      seed: MATRIX_SEED,
      generated: 2,
      deadlines: patientAll({ requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, progressTimeoutMs: DEFAULT_PROGRESS_TIMEOUT_MS }),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(host.trafficViolations).toEqual([]);
    return new Map(outcome.rows.map((row) => [row.id, { result: row.result, detail: row.detail }]));
  } finally {
    await host.close();
  }
}

describe('a certification of the reference host', () => {
  it('gives the same rows on the memory store and on a SQLite file', async () => {
    const memory = await rows(undefined);
    const file = await rows(join(dir, 'host.sqlite'));
    expect([...memory.values()].filter((row) => row.result === 'executed-fail' || row.result === 'blocked')).toEqual([]);
    expect([...memory.values()].filter((row) => row.result === 'executed-pass').length).toBeGreaterThan(50);
    expect(Object.fromEntries(file)).toEqual(Object.fromEntries(memory));
  });
});
