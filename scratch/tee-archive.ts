// Scratch: one certification of the reference host in-process, every exchange recorded twice —
// by this tree's ArchiveRecorder and by main's (the before clone at /tmp/s4before, 31df611) — then
// each archive's text built by its own tree's code with its own redactor (the same secrets), and
// compared byte for byte; and each tree's whole-text check of it. Run from this tree's root.
import { readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { certifyTarget } from '../lib/certify.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { archiveText } from '../lib/archive/har.ts';
import { Redactor, pemSecrets } from '../lib/redact.ts';
import type { ExchangeRecorder } from '../lib/client/recorder.ts';
const before = '/tmp/s4before/lib/';
const { ArchiveRecorder: BeforeRecorder } = await import(`${before}archive/recorder.ts`);
const { archiveText: beforeText } = await import(`${before}archive/har.ts`);
const { Redactor: BeforeRedactor } = await import(`${before}redact.ts`);

const dir = `${homedir()}/.config/openwop-eval-conformance/`;
const pem = readFileSync(dir + readdirSync(dir).find((f) => f.endsWith('.pem'))!, 'utf8');
const host = await startReferenceHost({ port: 0 });
const mine = new ArchiveRecorder();
const theirs = new BeforeRecorder();
const tee: ExchangeRecorder = {
  begin(request) {
    const a = mine.begin(request);
    const b = theirs.begin(request);
    return {
      headers: (s, h) => (a.headers(s, h), b.headers(s, h)),
      chunk: (bytes) => (a.chunk(bytes), b.chunk(bytes)),
      end: (o) => (a.end(o), b.end(o)),
      fail: (e) => (a.fail(e), b.fail(e)),
      takeFrame: () => a.takeFrame?.(),
    } as ReturnType<ExchangeRecorder['begin']>;
  },
};
const seed = process.argv[2] ?? 'fafc5f35dec28faa17474ce69b7c3ffd';
const outcome = await certifyTarget({
  recorder: tee,
  host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey },
  requireBehavior: false,
  scenarios: loadScenarios(),
  seed,
  checkKeys: true,
  bundle: true,
} as Parameters<typeof certifyTarget>[0]);
await host.close();
if (!outcome.ok) throw new Error(outcome.reason);
// A secret that appears in the archive, so that redaction has work to do: the tenant keys (named by role, and echoed in any body).
const secrets = [host.tenants.a.apiKey, host.tenants.b.apiKey, ...pemSecrets(pem)];
for (const extra of [[], [], ['ow2k_tenant_a_dev_key', 'run', 'suite', 'ab%2Fcd'], ['"status"', 'debug', 'run']]) {
  const settings = { seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true };
  const roles = { tenantA: host.tenants.a.apiKey, tenantB: host.tenants.b.apiKey };
  let t = performance.now();
  const a = archiveText(mine.har(settings, roles, new Redactor([...secrets, ...extra])));
  const ta = performance.now() - t;
  t = performance.now();
  const b = beforeText(theirs.har(settings, roles, new BeforeRedactor([...secrets, ...extra])));
  const tb = performance.now() - t;
  t = performance.now();
  const ca = new Redactor([...secrets, ...extra]).text(a) === a;
  const tca = performance.now() - t;
  t = performance.now();
  const cb = new BeforeRedactor([...secrets, ...extra]).text(b) === b;
  const tcb = performance.now() - t;
  // The tee tells main's recorder each event a moment after this tree's: its times differ by microseconds.
  const untimed = (text: string) => JSON.stringify(JSON.parse(text), (k, v) => (k === 'time' || k === 'timings' || k === 'startedDateTime' ? undefined : v));
  console.log(`equal but for the timing fields: ${untimed(a) === untimed(b)}`);
  if (untimed(a) !== untimed(b)) {
    const ea = JSON.parse(a).log.entries; const eb = JSON.parse(b).log.entries;
    let shown = 0;
    for (let i = 0; i < ea.length && shown < 3; i++) {
      const x = JSON.stringify(ea[i]); const y = JSON.stringify(eb[i]);
      if (x === y) continue;
      shown++;
      let k = 0; while (x[k] === y[k]) k++;
      console.log(`entry ${i} differs at ${k}: mine …${x.slice(Math.max(0, k - 80), k + 80)}… main …${y.slice(Math.max(0, k - 80), k + 80)}…`);
    }
  }
  console.log(`secrets +${JSON.stringify(extra)}: ${mine.size} exchanges; archive text ${a.length} chars, equal to main's: ${a === b}; [redacted] ${a.split('[redacted]').length - 1} times; build ${ta.toFixed(1)} ms (main ${tb.toFixed(1)}); whole-text check passes ${ca} (main ${cb}), ${tca.toFixed(1)} ms (main ${tcb.toFixed(1)})`);
}
// (A count of the streams' chunks and a holdsNone shortcut for them stood here: 152 streams, 411 chunks, 3.1 ms to redact them all; dropped.)
{
  const settings = { seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true };
  const roles = { tenantA: host.tenants.a.apiKey, tenantB: host.tenants.b.apiKey };
  for (let round = 0; round < 3; round++) {
    const r = new Redactor(secrets);
    const inner = r.text.bind(r);
    let calls = 0; let spent = 0; let chars = 0;
    r.text = (t: string) => { calls++; chars += t.length; const a = performance.now(); const out = inner(t); spent += performance.now() - a; return out; };
    const a = performance.now();
    const har = mine.har(settings, roles, r);
    const b = performance.now();
    const text = archiveText(har);
    const c = performance.now();
    console.log(`har() ${(b - a).toFixed(1)} ms, of which redactor.text ${spent.toFixed(1)} ms in ${calls} calls (${chars} chars); stringify ${(c - b).toFixed(1)} ms (${text.length} chars)`);
  }
}
{
  // The parts of building the HAR, over this run's exchanges: what entryOf does per exchange, apart.
  const exchanges = (mine as unknown as { har: unknown }) && ([] as unknown[]);
  void exchanges;
  const r = new Redactor(secrets);
  const har = mine.har({ seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true }, {}, r);
  const bodies = har.log.entries.map((e) => e.response.content.text ?? '');
  const streams = har.log.entries.filter((e) => e.response._chunks !== undefined);
  let t = performance.now();
  for (const b of bodies) Buffer.byteLength(b);
  console.log(`byteLength of every body: ${(performance.now() - t).toFixed(1)} ms (x2 in entryOf)`);
  const encoded = streams.map((e) => e.response._chunks!.map((c) => Buffer.from(c.text)));
  t = performance.now();
  for (const chunks of encoded) { const d = new TextDecoder(); for (const c of chunks) d.decode(c, { stream: true }); d.decode(); }
  console.log(`decoding every stream's chunks: ${(performance.now() - t).toFixed(1)} ms`);
  t = performance.now();
  for (const e of streams) e.response._chunks!.map((c) => c.text).join('') !== e.response.content.text;
  console.log(`joining and comparing every stream's chunks: ${(performance.now() - t).toFixed(1)} ms`);
  t = performance.now();
  for (const e of har.log.entries) new URL(e.request.url);
  console.log(`new URL per exchange: ${(performance.now() - t).toFixed(1)} ms`);
  t = performance.now();
  for (const e of har.log.entries) new Date(Date.parse(e.startedDateTime)).toISOString();
  console.log(`toISOString per exchange: ${(performance.now() - t).toFixed(1)} ms`);
  t = performance.now();
  for (let i = 0; i < 3; i++) mine.har({ seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true }, {}, new Redactor(secrets));
  console.log(`har() x3: ${((performance.now() - t) / 3).toFixed(1)} ms each`);
}
if (process.env.HAR_LOOP) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < Number(process.env.HAR_LOOP); i++) mine.har({ seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true }, {}, new Redactor(secrets));
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync('/tmp/s4har.cpuprofile', JSON.stringify(profile));
}
