// The archive of a certification and its replay (docs/auditing.md "Replaying a certification"): `run`
// writes every exchange as HAR 1.2 beside the bundle, bound to it by a signed file; `verify
// --replay` runs the certification again against the archive and reproduces every row; an edited
// answer moves the row that read it, a swapped archive/bundle pair breaks the binding, a
// known-bad host's archive replays to the same failing rows, and no archive holds a secret.

import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArchive, type Har, type HarEntry } from '../lib/archive/har.ts';
import { ArchiveRecorder } from '../lib/archive/recorder.ts';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { certifyTarget } from '../lib/certify.ts';
import { withDeadlines } from '../lib/ledger/deadlines.ts';
import { bindArchive, bindingPath, checkBinding } from '../lib/evidence/archive.ts';
import { signaturePayload } from '../lib/evidence/bundle.ts';
import { ed25519PrivateKey, ed25519PublicKey, rawPublicKeyB64url, signText } from '../lib/evidence/ed25519.ts';
import { canonicalJson, sha256Hex } from '../lib/evidence/jcs.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { witnessDigest } from '../lib/evidence/witness.ts';
import type { Bundle, LedgerRow } from '../lib/evidence/types.ts';
import { pemSecrets, Redactor } from '../lib/redact.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { readFilter } from '../lib/leg-filter.ts';
import { cli } from './support/cli.ts';
import { patientAll } from './support/slowness.ts';
import { HOSTILE_BEHAVIOURS, startHostileHost, summaryCutMidBody } from '../hosts/hostile/catalogue.ts';

/**
 * The summary closed mid-body, cleanly, where `reset-mid-body` resets it: the harness's stack
 * names the loss otherwise (UND_ERR_SOCKET, not ECONNRESET), and the replay host loses the
 * connection one way; one wording per class of loss makes the replay word the row as the run did.
 */
const CLOSED_MID_BODY = summaryCutMidBody('closed-mid-body', 'closes', (socket) => socket.end());

const KEY_A = 'ow2k_ARCHIVE_CANARY_A_5c81d0e9b2f4';
const KEY_B = 'ow2k_ARCHIVE_CANARY_B_09e7a3c6d51f';
const HOST_CONFIG = JSON.stringify({ tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });

/** The effects seam, read per run (CONTRACT §5) or for the whole tenant. */
const EFFECTS = /\/conformance\/seams\/(runs\/[^/]+\/)?effects$/;

const dir = mkdtempSync(join(tmpdir(), 'owec-archive-'));
const bundle = join(dir, 'reference-host.bundle.json');
const archive = join(dir, 'reference-host.archive.har.gz');
/** Every secret a certification of this file used, and every archive text it wrote. */
const secrets: string[] = [KEY_A, KEY_B];
const archives = new Map<string, string>();
let devKeyDir: string | undefined;
let publicKeyPem = '';

function readHar(path: string): Har {
  const read = parseArchive(readFileSync(path), path);
  if (!read.ok) throw new Error(read.reason);
  archives.set(path, gunzipSync(readFileSync(path)).toString('utf8'));
  return read.har;
}

function bundleRows(path: string): LedgerRow[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { results: { requirements: LedgerRow[] } }).results.requirements;
}

function copyOf(har: Har): Har {
  return JSON.parse(JSON.stringify(har)) as Har;
}

/** The run id the archive's `POST /runs` of `suite` was answered with. */
/**
 * The first run of `suite` in the archive whose summary was served: legs start in an order of
 * their own (lib/ledger/schedule.ts), and a leg may create a run of the suite it never summarises
 * (a probe, a cancelled run) before the run the others judge.
 */
function runOf(har: Har, suite: string): string {
  const summarised = (runId: string) =>
    har.log.entries.some((entry) => entry.response.status === 200 && entry.request.url.endsWith(`/runs/${runId.replace('/', '~2F')}/eval-summary`));
  for (const entry of har.log.entries) {
    if (entry.request.method === 'POST' && entry.response.status === 201 && entry.request.postData?.text?.includes(`"evalSuiteRef":"${suite}"`)) {
      const { runId } = JSON.parse(entry.response.content.text!) as { runId: string };
      if (summarised(runId)) return runId;
    }
  }
  throw new Error(`Test bug: no summarised run of ${suite} in the archive`);
}

beforeAll(async () => {
  devKeyDir = process.env.OPENWOP_DEV_KEY_DIR;
  process.env.OPENWOP_DEV_KEY_DIR = join(dir, 'keys');
  // As `npm start` runs it, with tenant keys this file knows so it can look for them.
  const run = await cli('run', '--certify', bundle, '--archive', archive, '--progress', 'none', '--reference-host-config', HOST_CONFIG);
  expect(run.code, run.out + run.err).toBe(0);
  const privateKeyPem = readFileSync(join(dir, 'keys', 'dev-signing-key.pem'), 'utf8');
  publicKeyPem = readFileSync(join(dir, 'keys', 'dev-signing-key.pub.pem'), 'utf8');
  secrets.push(...pemSecrets(privateKeyPem).filter((s) => s.length >= 16));
}, 120_000);

afterAll(() => {
  if (devKeyDir === undefined) delete process.env.OPENWOP_DEV_KEY_DIR;
  else process.env.OPENWOP_DEV_KEY_DIR = devKeyDir;
});

describe('the archive of a certification', () => {
  it('is HAR 1.2 with the seed, SSE bodies chunk by chunk and timings, the keys named by role and who sent each request', () => {
    const har = readHar(archive);
    expect(har.log.version).toBe('1.2');
    expect(har.log._certification.seed).toMatch(/^[0-9a-f]{32}$/);
    const streams = har.log.entries.filter((e) => e.response._chunks !== undefined);
    expect(streams.length).toBeGreaterThan(0);
    for (const stream of streams) expect(stream.response._chunks!.map((c) => c.text).join('')).toBe(stream.response.content.text);
    expect(streams.some((s) => s.response.content.text!.includes('event: '))).toBe(true);
    for (const entry of har.log.entries) expect(entry.time).toBeGreaterThanOrEqual(entry.timings.wait);
    const credentials = new Set(har.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name === 'authorization').map((h) => h.value)));
    expect([...credentials].sort()).toEqual(['Bearer <tenant-a>', 'Bearer <tenant-b>']);
    // Who sent each request: discovery none, a leg its id, the work legs share its key (lib/client/sender.ts).
    expect(har.log.entries[0]!._sentBy).toBeUndefined();
    const senders = new Set(har.log.entries.map((e) => e._sentBy));
    expect([...senders].filter((sender) => sender?.startsWith('openwop.requirement.')).length).toBeGreaterThan(20);
    expect(senders).toContain('shared eval-run:conformance-eval-trajectory');
    const path = (entry: HarEntry) => new URL(entry.request.url).pathname;
    // None for the certification's own: discovery, the key checks (this host lists every fixture: nothing is seeded).
    const own = har.log.entries.filter((e) => e._sentBy === undefined).map((e) => `${e.request.method} ${path(e)}`);
    expect(new Set(own)).toEqual(new Set(['GET /.well-known/openwop', 'GET /runs/openwop-eval-conformance~2Fkey-check-0000000000000000']));
    const ids = new Set(bundleRows(bundle).map((row) => row.id));
    const shared = new Map<string, HarEntry[]>();
    for (const entry of har.log.entries.filter((e) => e._sentBy !== undefined)) {
      const sender = entry._sentBy!;
      if (sender.startsWith('shared ')) shared.set(sender, [...(shared.get(sender) ?? []), entry]);
      else expect(ids, `${sender} is a leg's id`).toContain(sender);
    }
    // Each of target.memo's callers (a shared run, a candidate against the shared baseline, a replay
    // of a shared source, which shares that source in turn), its work sent as its own.
    for (const key of ['eval-run:conformance-eval-verdict-baseline', 'recorded-invocations-replay', 'eval-run:conformance-eval-recorded-invocations-source'])
      expect(shared.has(`shared ${key}`), key).toBe(true);
    expect(shared.has('shared eval-run:conformance-eval-verdict-improved:against:conformance-eval-verdict-baseline')).toBe(true);
    for (const [sender, entries] of shared) {
      // One run created, of the fixture its key names, and every other request of it reads that run.
      const created = entries.filter((e) => e.request.method === 'POST' && path(e) === '/runs');
      expect(created.length, sender).toBe(1);
      const { evalSuiteRef } = JSON.parse(created[0]!.request.postData?.text ?? '{}') as { evalSuiteRef?: string };
      const fixture = sender === 'shared recorded-invocations-replay' ? 'conformance-eval-recorded-invocations-replay' : sender.split(':')[1];
      expect(evalSuiteRef, sender).toBe(fixture);
      const { runId } = JSON.parse(created[0]!.response.content.text!) as { runId: string };
      for (const entry of entries) if (entry !== created[0]) expect(path(entry), sender).toContain(`/runs/${runId.replace('/', '~2F')}/`);
    }
  });

  it('is replayed by verify --replay to every row, disposition and the witness digest, exit 0', { timeout: 60_000 }, async () => {
    writeFileSync(join(dir, 'host.pub.pem'), publicKeyPem);
    const replay = await cli('verify', bundle, '--replay', archive, '--host-key', join(dir, 'host.pub.pem'));
    expect(replay.code, replay.out + replay.err).toBe(0);
    expect(replay.out).toMatch(/^binding: holds \(.*its signature holds under the host key\)$/m);
    expect(replay.out).toMatch(new RegExp(`^replay: reproduced: all ${bundleRows(bundle).length} rows`, 'm'));
    // The raw key as discovery signingKeys publish it, as `verify --host-key` takes it (docs/cli.md).
    const raw = await cli('verify', bundle, '--replay', archive, '--host-key', rawPublicKeyB64url(publicKeyPem));
    expect(raw.code, raw.out + raw.err).toBe(0);
    expect(raw.out).toMatch(/^binding: holds \(.*its signature holds under the host key\)$/m);
  });

  it('feeds grade --archive the recompute of one run, every member equal', async () => {
    const har = readHar(archive);
    const graded = await cli(
      'grade',
      '--suite',
      'fixtures/eval-suites/conformance-eval-efficiency.json',
      '--archive',
      archive,
      '--run',
      runOf(har, 'conformance-eval-efficiency'),
    );
    expect(graded.code, graded.out + graded.err).toBe(0);
    expect(graded.out).toMatch(/^ {2}equal {7}totalCostUsd/m);
    expect(graded.out).toMatch(/^result: equal/m);
  });
});

describe('an archive with one answer edited', () => {
  it('a summary member: verify --replay names the row that moved and exits 1', { timeout: 60_000 }, async () => {
    const har = copyOf(readHar(archive));
    const run = runOf(har, 'conformance-eval-efficiency').replace('/', '~2F');
    for (const entry of har.log.entries) {
      if (!entry.request.url.endsWith(`/runs/${run}/eval-summary`) || entry.response.status !== 200) continue;
      entry.response.content.text = JSON.stringify({ ...JSON.parse(entry.response.content.text!), totalCostUsd: 0.5 });
    }
    const edited = join(dir, 'edited.har');
    writeFileSync(edited, JSON.stringify(har));
    copyFileSync(bindingPath(archive), bindingPath(edited));
    const replay = await cli('verify', bundle, '--replay', edited);
    expect(replay.code).toBe(1);
    expect(replay.out).toMatch(/^binding: the archive's SHA-256 is [0-9a-f]{64}, the binding names/m);
    expect(replay.out).toMatch(/^row openwop\.requirement\.0244\.cost-every-trial: disposition executed-pass → executed-fail/m);
    expect(replay.out).toMatch(/^replay: not reproduced: \d+ row\(s\) moved, 0 request\(s\) the archive does not hold, the witness digest differs$/m);
  });

  it('a status: the row that read it moves', { timeout: 60_000 }, async () => {
    const har = copyOf(readHar(archive));
    // Tenant A's reading: tenant B's probes of the same route are archived too, refused.
    const effects = har.log.entries.find((e) => EFFECTS.test(e.request.url) && e.response.status === 200)!;
    expect(effects.response.status).toBe(200);
    effects.response.status = 500;
    const replay = await replayCertification(har, await loadScenarios());
    expect(replay.misses).toEqual([]);
    const moved = rowDifferences(bundleRows(bundle), replay.rows);
    expect(
      // The leg that read it, whichever reached the effects first (the route check moves as well).
      moved.some((line) => /^row openwop\.requirement\.(?!0081\.routes-served:)\S+: disposition executed-pass → (blocked|executed-fail)/.test(line)),
      moved.join('\n'),
    ).toBe(true);
  });

  it('one event of a stream: a row grading that run moves', { timeout: 60_000 }, async () => {
    const har = copyOf(readHar(archive));
    const run = runOf(har, 'conformance-eval-trajectory').replace('/', '~2F');
    const stream = har.log.entries.find((e) => e.request.url.includes(`/runs/${run}/events`) && e.response._chunks !== undefined)!;
    const edit = (text: string) => text.replace(/"score":1\b/, '"score":0.5');
    expect(edit(stream.response.content.text!)).not.toBe(stream.response.content.text);
    stream.response._chunks = [{ time: 0, text: edit(stream.response.content.text!) }];
    stream.response.content.text = stream.response._chunks[0]!.text;
    const replay = await replayCertification(har, await loadScenarios());
    const moved = rowDifferences(bundleRows(bundle), replay.rows);
    expect(moved.length, 'some row moves').toBeGreaterThan(0);
    for (const line of moved)
      expect(line).toMatch(/^row openwop\.requirement\.\S+: disposition executed-pass → executed-fail; .*the conformance-eval-trajectory run /);
  });

  it('a request the archive does not hold is a replay failure naming it', { timeout: 60_000 }, async () => {
    const har = copyOf(readHar(archive));
    har.log.entries = har.log.entries.filter((e) => !EFFECTS.test(e.request.url));
    // The replay host drops the connection of a request it cannot answer; short bounds let the
    // legs that asked it give up soon, since only the miss is looked at here.
    har.log._certification = { ...har.log._certification, requestTimeoutMs: 1_000, legDeadlineMs: 3_000 };
    const replay = await replayCertification(har, await loadScenarios());
    // Whichever asked first: tenant A's reading, or tenant B's probe of it (0244.run-routes-tenant-scoped).
    expect(replay.misses[0]).toMatch(/^GET \/conformance\/seams\/(runs\/\S+\/)?effects \(Bearer <tenant-[ab]>\)$/);
  });
});

describe('a swapped archive and bundle', () => {
  it('fail the binding: another run of the same host, and a binding re-signed with another key', { timeout: 60_000 }, async () => {
    const other = join(dir, 'other.bundle.json');
    const otherArchive = join(dir, 'other.bundle.archive.har.gz');
    const run = await cli('run', '--certify', other, '--progress', 'none', '--filter', 'openwop.requirement.0081', '--reference-host-config', HOST_CONFIG);
    // A filtered run certifies nothing (exit 4), and still writes its bundle and archive.
    expect(run.code, run.out + run.err).toBe(4);
    readHar(otherArchive);
    const swapped = await cli('verify', bundle, '--replay', otherArchive, '--host-key', join(dir, 'host.pub.pem'));
    expect(swapped.code).toBe(1);
    expect(swapped.out).toMatch(
      /^binding: the bundle's witnessSha256 is [0-9a-f]{64}, the binding names [0-9a-f]{64}: the archive belongs to another bundle$/m,
    );
    expect(swapped.out).toMatch(/^binding: broken/m);

    // Whoever rewrites the binding to fit the swap cannot sign it with the bundle's key.
    const target = JSON.parse(readFileSync(bundle, 'utf8')) as Record<string, unknown>;
    const keyId = (target.signature as { keyId: string }).keyId;
    const forged = bindArchive(readFileSync(otherArchive), target, generateDevKeyPair().privateKeyPem, keyId);
    const check = checkBinding(forged, readFileSync(otherArchive), target, ed25519PublicKey(publicKeyPem));
    expect(check).toEqual({ problems: ['the binding signature does not hold under the host key'], signatureChecked: true });
  });
});

describe('a bundle whose discovery document was edited after the run', () => {
  // The eval verdict rests on the bundle's signed discovery document (docs/auditing.md "Eval
  // profiles"): a vendor who drops a mode it failed from it, and re-signs, keeps every row (the
  // reference host fails none; its regression mode dropped stands for one).
  it('is not reproduced, though every row is', { timeout: 60_000 }, async () => {
    const privateKeyPem = readFileSync(join(dir, 'keys', 'dev-signing-key.pem'), 'utf8');
    const edited = JSON.parse(readFileSync(bundle, 'utf8')) as Bundle;
    const facet = (edited.discovery.document as { agents: { evalSuite: { modes: string[] } } }).agents.evalSuite;
    expect(facet.modes).toContain('regression');
    facet.modes = facet.modes.filter((mode) => mode !== 'regression');
    edited.discovery.sha256 = sha256Hex(canonicalJson(edited.discovery.document));
    edited.signature.sig = signText(signaturePayload(edited), ed25519PrivateKey(privateKeyPem));
    const path = join(dir, 'rediscovered.bundle.json');
    writeFileSync(path, JSON.stringify(edited));
    const copy = join(dir, 'rediscovered.archive.har.gz');
    copyFileSync(archive, copy);
    const binding = bindArchive(readFileSync(copy), edited as unknown as Record<string, unknown>, privateKeyPem, edited.signature.keyId);
    writeFileSync(bindingPath(copy), JSON.stringify(binding));
    writeFileSync(join(dir, 'host.pub.pem'), publicKeyPem);
    const replay = await cli('verify', path, '--replay', copy, '--host-key', join(dir, 'host.pub.pem'));
    expect(replay.out).toMatch(/^binding: holds/m);
    expect(replay.out).toMatch(
      /^discovery: the bundle's discovery\.sha256 is [0-9a-f]{64}, but the discovery document the archive's host served digests to [0-9a-f]{64}$/m,
    );
    expect(replay.out).toMatch(/^replay: not reproduced: 0 row\(s\) moved, 0 request\(s\) the archive does not hold, the discovery document differs$/m);
    expect(replay.code).toBe(1);
  });
});

describe('a bundle that declares a host.deployment', () => {
  // RFC 0216 §E.14: the deployment enters the witness digest's preimage when present, and verify
  // recomputes it so; the replay takes it from the bundle too, and reproduces the rows.
  it('is reproduced, its digest taken with the deployment', { timeout: 60_000 }, async () => {
    const privateKeyPem = readFileSync(join(dir, 'keys', 'dev-signing-key.pem'), 'utf8');
    const edited = JSON.parse(readFileSync(bundle, 'utf8')) as Bundle & { host: Record<string, unknown>; results: { requirements: LedgerRow[] } };
    edited.host.deployment = 'colocated-companion';
    edited.witnessSha256 = witnessDigest(edited.results.requirements, undefined, edited.host.deployment);
    edited.signature.sig = signText(signaturePayload(edited), ed25519PrivateKey(privateKeyPem));
    const path = join(dir, 'deployed.bundle.json');
    writeFileSync(path, JSON.stringify(edited));
    const copy = join(dir, 'deployed.archive.har.gz');
    copyFileSync(archive, copy);
    writeFileSync(
      bindingPath(copy),
      JSON.stringify(bindArchive(readFileSync(copy), edited as unknown as Record<string, unknown>, privateKeyPem, edited.signature.keyId)),
    );
    writeFileSync(join(dir, 'host.pub.pem'), publicKeyPem);
    const replay = await cli('verify', path, '--replay', copy, '--host-key', join(dir, 'host.pub.pem'));
    expect(replay.out).toMatch(/^replay: reproduced: all \d+ rows/m);
    expect(replay.code).toBe(0);
  });
});

describe('the archive of a known-bad host', () => {
  it('replays to the same failing rows', { timeout: 60_000 }, async () => {
    const bad = KNOWN_BAD_HOSTS.find((h) => h.name === 'scored-passed-on-output')!;
    const host = await startReferenceHost({
      log: () => {},
      ...bad.options,
      port: 0,
      dbPath: ':memory:',
      tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } },
    });
    const recorder = new ArchiveRecorder();
    let outcome: Awaited<ReturnType<typeof certifyTarget>>;
    try {
      outcome = await certifyTarget({
        host: { baseUrl: host.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B },
        requireBehavior: false,
        scenarios: await loadScenarios(),
        recorder,
        checkKeys: true,
      });
    } finally {
      await host.close();
    }
    if (!outcome.ok) throw new Error(outcome.reason);
    const redactor = new Redactor([KEY_A, KEY_B]);
    const rows = redactor.value(outcome.rows);
    const har = recorder.har(
      { seed: outcome.target.seed.seed, requireBehavior: false, concurrency: 8, tenantB: true, checkKeys: true },
      { tenantA: KEY_A, tenantB: KEY_B },
      redactor,
    );
    archives.set('known-bad', JSON.stringify(har));
    const failing = rows.filter((r) => r.result === 'executed-fail').map((r) => r.id);
    expect(failing).toContain('openwop.requirement.0244.trajectory-graded');
    const replay = await replayCertification(copyOf(har), await loadScenarios());
    expect(replay.misses).toEqual([]);
    expect(rowDifferences(rows, replay.rows)).toEqual([]);
    expect(replay.rows.filter((r) => r.result === 'executed-fail').map((r) => r.id)).toEqual(failing);
  });
});

/** The summary legs against a hostile host in front of the reference host, archived; short bounds so a hang ends soon. */
async function certifyHostile(name: string): Promise<{ rows: LedgerRow[]; har: Har }> {
  const upstream = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
  const behaviour = [...HOSTILE_BEHAVIOURS, CLOSED_MID_BODY].find((b) => b.name === name)!;
  const hostile = await startHostileHost(upstream.baseUrl, behaviour, [KEY_A, KEY_B]);
  const recorder = new ArchiveRecorder();
  const never = new AbortController();
  const settings = {
    requireBehavior: false,
    concurrency: 8,
    tenantB: true,
    checkKeys: true,
    filter: '0081.summary',
    // Short so a hang ends soon, stretched by the machine's measured slowness so that an honest
    // answer on a busy machine (discovery first of all) is not cut by them; the replay reads them back.
    ...patientAll({ requestTimeoutMs: 1_000, legDeadlineMs: 3_000 }),
  };
  let outcome: Awaited<ReturnType<typeof certifyTarget>>;
  try {
    outcome = await certifyTarget({
      requireBehavior: settings.requireBehavior,
      concurrency: settings.concurrency,
      checkKeys: settings.checkKeys,
      deadlines: { requestTimeoutMs: settings.requestTimeoutMs },
      filter: readFilter(settings.filter),
      host: { baseUrl: hostile.baseUrl, apiKey: KEY_A, tenantBApiKey: KEY_B },
      scenarios: await loadScenarios(),
      recorder,
      bound: (legs) => withDeadlines(legs, settings.legDeadlineMs, { signal: never.signal, reason: () => 'not interrupted' }),
    });
  } finally {
    await hostile.close();
    await upstream.close();
  }
  if (!outcome.ok) throw new Error(outcome.reason);
  const redactor = new Redactor([KEY_A, KEY_B]);
  const har = recorder.har({ ...settings, seed: outcome.target.seed.seed }, { tenantA: KEY_A, tenantB: KEY_B }, redactor);
  archives.set(name, JSON.stringify(har));
  return { rows: redactor.value(outcome.rows), har };
}

describe('the archive of a host that echoes every key back', () => {
  it('holds no secret', { timeout: 60_000 }, async () => {
    const { har } = await certifyHostile('echoed-secrets');
    expect(JSON.stringify(har)).toContain('[redacted]');
  });
});

describe.each(['hang-summary', 'reset-mid-body', 'closed-mid-body', 'huge-body-declared', 'huge-body-chunked', 'truncated-json'])(
  'the archive of a host whose answers fail (%s)',
  (name) => {
    it('replays the failure as the harness met it, to the same rows', { timeout: 60_000 }, async () => {
      const { rows, har } = await certifyHostile(name);
      expect(rows.some((row) => row.result === 'blocked' || row.result === 'executed-fail')).toBe(true);
      const replay = await replayCertification(copyOf(har), await loadScenarios());
      expect(replay.misses).toEqual([]);
      expect(rowDifferences(rows, replay.rows)).toEqual([]);
    });
  },
);

describe('an archive whose gzip inflates past its bound (a gzip bomb)', () => {
  it('is refused as a file over its bound, naming EFBIG, not as a bad gzip', () => {
    const bomb = gzipSync(Buffer.alloc(2 ** 21));
    expect(parseArchive(bomb, 'bomb.har.gz', 2 ** 20)).toEqual({
      ok: false,
      reason: 'cannot read bomb.har.gz: EFBIG: its gzip inflates to more than 1048576 bytes',
    });
    expect(parseArchive(bomb.subarray(0, 100), 'cut.har.gz', 2 ** 20)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^cut\.har\.gz: not a gzip file \(/),
    });
  });
});

describe('every archive this file wrote', () => {
  it('holds none of the secrets its certifications used, in any form', () => {
    expect([...archives.keys()].length).toBeGreaterThanOrEqual(9);
    for (const [name, text] of archives) {
      for (const secret of secrets) {
        for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
          expect(text.includes(form), `${name} carries ${form.slice(0, 12)}…`).toBe(false);
        }
      }
      expect(text, name).not.toContain('CANARY');
    }
  });
});
