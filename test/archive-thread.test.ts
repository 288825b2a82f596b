// The archive made on its own thread (lib/archive/encode-thread.ts) is the archive the command's
// thread makes (ArchiveRecorder.har, archiveText): the same text from the same exchanges, whether
// they are handed off in batches as they end, again whole when the secrets change between two
// hand-offs, with an exchange still open at the last one, or after a last hand-off made as the
// legs ended that an exchange begun later overtakes. From the build, the thread itself is started
// over an in-process certification of the reference host and its bytes are compared.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ArchiveEntries, type ArchiveThread, type ToArchiveThread } from '../lib/archive/encode-thread.ts';
import { archiveText, checkedArchiveBytes, type ArchiveSettings } from '../lib/archive/har.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import type { KeyRoles } from '../lib/archive/request-key.ts';
import { certifyTarget } from '../lib/certify.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { Redactor } from '../lib/redact.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { loadScenarios } from '../scenarios/index.ts';

const { buildIsCurrent } = (await import(new URL('../bin/build-state.mjs', import.meta.url).href)) as { buildIsCurrent(): boolean };

const KEY_A = 'ow2k_THREAD_CANARY_A_3e9d1c7b5a20';
const KEY_B = 'ow2k_THREAD_CANARY_B_8f2a6d4c1e93';
const ROLES: KeyRoles = { tenantA: KEY_A, tenantB: KEY_B };
const SETTINGS: ArchiveSettings = { seed: 'f'.repeat(64), requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true };
const LATE_SECRET = 'late-secret-0123456789';

/** One exchange of each kind the recorder keeps, carrying the keys and the late secret. */
function record(recorder: ArchiveRecorder, n: number): void {
  const url = `http://127.0.0.1:1/runs/run-${n}?after=${n}`;
  const headers = { authorization: `Bearer ${n % 2 === 0 ? KEY_A : KEY_B}`, 'openwop-version': '2.0' };
  const kind = n % 5;
  if (kind === 0) {
    const exchange = recorder.begin({ method: 'POST', url, headers, body: `{"note":"${LATE_SECRET}","n":${n}}`, stream: false });
    exchange.headers(201, { 'content-type': 'application/json' });
    exchange.end({ text: `{"runId":"run-${n}","echo":"${KEY_A}","esc":"\\u0041%2F"}` });
  } else if (kind === 1) {
    const exchange = recorder.begin({ method: 'GET', url, headers, stream: true });
    exchange.headers(200, { 'content-type': 'text/event-stream' });
    const bytes = Buffer.from(`data: {"seq":${n},"text":"é ${LATE_SECRET}"}\n\n`);
    // A character split between two chunks.
    exchange.chunk(bytes.subarray(0, 21));
    exchange.chunk(bytes.subarray(21));
    exchange.end({ by: n % 2 === 0 ? 'host' : 'harness' });
  } else if (kind === 2) {
    recorder.begin({ method: 'GET', url, headers, stream: false }).fail(Object.assign(new Error(`connect ECONNREFUSED ${KEY_B}`), { code: 'ECONNREFUSED' }));
  } else if (kind === 3) {
    const exchange = recorder.begin({ method: 'GET', url, headers, stream: true });
    exchange.headers(200, { 'content-type': 'text/event-stream' });
    exchange.chunk(Buffer.from('data: {}\n\n'));
    exchange.fail(Object.assign(new Error('too large'), { name: 'ResponseTooLarge' }));
  } else {
    const exchange = recorder.begin({ method: 'GET', url, headers: { ...headers, authorization: 'Bearer someone-else' }, stream: false });
    exchange.headers(404, { 'content-type': 'application/json' });
    exchange.end({ text: '{"error":{"code":"not_found"}}' });
  }
}

/** What ArchiveThread sends: the hand-off of `recorder`, with `again` when the secrets changed since `under`. */
function handOff(recorder: ArchiveRecorder, redactor: Redactor, under: { key?: string }, last: boolean): ToArchiveThread {
  const key = JSON.stringify([redactor.secrets, ROLES]);
  const again = under.key !== undefined && under.key !== key;
  under.key = key;
  if (again) recorder.forget();
  return { exchanges: recorder.handOff(last), secrets: redactor.secrets, roles: ROLES, again, now: performance.now() };
}

/** `text` parsed, with the members that tell when an open exchange was archived set aside. */
function withoutOpenTimes(text: string, open: number): unknown {
  const har = JSON.parse(text) as { log: { entries: Array<{ time: number; timings: { receive: number } }> } };
  const entry = har.log.entries[open]!;
  entry.time = 0;
  entry.timings.receive = 0;
  return har;
}

describe('the entries made of hand-offs (lib/archive/encode-thread.ts ArchiveEntries)', () => {
  it('make the archive the recorder makes, batch by batch, again whole when a secret is added between two hand-offs', () => {
    const recorder = new ArchiveRecorder();
    const redactor = new Redactor([KEY_A, KEY_B]);
    const entries = new ArchiveEntries();
    const under: { key?: string } = {};
    let made: Redactor | undefined;
    for (let n = 0; n < 40; n++) {
      record(recorder, n);
      if (n % 7 === 6) made = entries.take(handOff(recorder, redactor, under, false));
      // A secret learnt mid-run: what was made before it is made again.
      if (n === 20) redactor.add(LATE_SECRET);
    }
    made = entries.take(handOff(recorder, redactor, under, true));
    const text = entries.text(SETTINGS, made);
    expect(text).toBe(archiveText(recorder.har(SETTINGS, ROLES, redactor)));
    expect(text).not.toContain(LATE_SECRET);
    expect(JSON.parse(text).log.entries).toHaveLength(40);
  });

  it('with an exchange still open at the last hand-off, archive it as it stands then', () => {
    const recorder = new ArchiveRecorder();
    const redactor = new Redactor([KEY_A, KEY_B]);
    const entries = new ArchiveEntries();
    const under: { key?: string } = {};
    for (let n = 0; n < 10; n++) record(recorder, n);
    entries.take(handOff(recorder, redactor, under, false));
    const open = recorder.begin({ method: 'GET', url: 'http://127.0.0.1:1/runs/r/events', headers: { authorization: `Bearer ${KEY_A}` }, stream: true });
    open.headers(200, { 'content-type': 'text/event-stream' });
    open.chunk(Buffer.from('data: {"seq":1}\n\n'));
    record(recorder, 10);
    expect(recorder.allEnded()).toBe(false);
    const made = entries.take(handOff(recorder, redactor, under, true));
    const text = entries.text(SETTINGS, made);
    expect(withoutOpenTimes(text, 10)).toEqual(withoutOpenTimes(archiveText(recorder.har(SETTINGS, ROLES, redactor)), 10));
    expect(JSON.parse(text).log.entries[10].response._endedBy).toBe('harness');
  });
});

// From the sources a worker thread cannot run the TypeScript modules, so the thread is the build's.
describe.runIf(buildIsCurrent())('the archive made on its own thread (the build)', () => {
  it('is the archive the command thread makes of the same certification, even when an exchange begins and a secret is learnt after the legs', {
    timeout: 120_000,
  }, async () => {
    const { ArchiveThread: BuiltThread } = (await import(new URL('../dist/lib/archive/encode-thread.js', import.meta.url).href)) as {
      ArchiveThread: typeof ArchiveThread;
    };
    const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
    const recorder = new ArchiveRecorder();
    const redactor = new Redactor([KEY_A, KEY_B]);
    const thread = BuiltThread.start()!.watch({ recorder, redactor, roles: ROLES });
    const finish = { path: 'archive.har.gz', settings: SETTINGS };
    try {
      const outcome = await certifyTarget({
        host: { baseUrl: host.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B },
        requireBehavior: false,
        scenarios: await loadScenarios(),
        filter: readFilter('0081'),
        recorder,
        checkKeys: true,
        onLegsDone: () => thread.legsDone(finish),
      });
      expect(outcome.ok).toBe(true);
    } finally {
      await host.close();
    }
    // More than a batch ended while the legs ran.
    expect(recorder.size).toBeGreaterThan(64);
    // The last hand-off made as the legs ended no longer holds every exchange, and a secret the
    // entries made so far hold is learnt: every one of them is made again.
    record(recorder, 0);
    redactor.add('conformance-eval-efficiency');
    const bytes = await thread.encode(finish);
    const text = gunzipSync(bytes!).toString('utf8');
    expect(text).toBe(archiveText(recorder.har(SETTINGS, ROLES, redactor)));
    expect(text).not.toContain('conformance-eval-efficiency');
  });

  it('refuses, as the command thread does, an archive whose text would still hold a secret', { timeout: 60_000 }, async () => {
    const { ArchiveThread: BuiltThread } = (await import(new URL('../dist/lib/archive/encode-thread.js', import.meta.url).href)) as {
      ArchiveThread: typeof ArchiveThread;
    };
    const recorder = new ArchiveRecorder();
    // A secret no member holds but the text does, across two members: only the whole text's check finds it.
    const redactor = new Redactor([KEY_A, KEY_B, '"version":"1.2"']);
    const thread = BuiltThread.start()!.watch({ recorder, redactor, roles: ROLES });
    for (let n = 0; n < 5; n++) record(recorder, n);
    const finish = { path: 'archive.har.gz', settings: SETTINGS };
    expect(await checkedArchiveBytes(archiveText(recorder.har(SETTINGS, ROLES, redactor)), finish.path, redactor)).toBeUndefined();
    expect(await thread.encode(finish)).toBeUndefined();
  });
});
