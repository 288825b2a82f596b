// verify --replay against archives edited in ways round 6 did not try, each re-bound by the
// signing vendor (the dev key), so only the replay itself can tell. Each case is run as a child
// process with a time bound. Base: /tmp/a9ev (a `run --certify` of the reference host).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { bindArchive } from '../lib/evidence/archive.ts';

// biome-ignore lint/suspicious/noExplicitAny: untyped JSON
type Obj = Record<string, any>;
const KEYDIR = join(homedir(), '.config/openwop-eval-conformance');
const PRIV = readFileSync(join(KEYDIR, 'dev-signing-key.pem'), 'utf8');
const PUB = join(KEYDIR, 'dev-signing-key.pub.pem');
const BASE = '/tmp/a9ev';
const bundle = JSON.parse(readFileSync(join(BASE, 'b.json'), 'utf8')) as Obj;
const har0 = JSON.parse(gunzipSync(readFileSync(join(BASE, 'a.har.gz'))).toString('utf8')) as Obj;
const only = process.argv.slice(2);

const cases: Array<[string, (har: Obj) => void]> = [
  ['concurrency 0', (h) => (h.log._certification.concurrency = 0)],
  ['concurrency -1', (h) => (h.log._certification.concurrency = -1)],
  ['concurrency "x"', (h) => (h.log._certification.concurrency = 'x')],
  ['concurrency 1e6', (h) => (h.log._certification.concurrency = 1e6)],
  ['generated 1e7', (h) => (h.log._certification.generated = 1e7)],
  ['generated -3', (h) => (h.log._certification.generated = -3)],
  ['maxResponseBytes 0', (h) => (h.log._certification.maxResponseBytes = 0)],
  ['maxEvents "lots"', (h) => (h.log._certification.maxEvents = 'lots')],
  ['requestTimeoutMs 1e12', (h) => (h.log._certification.requestTimeoutMs = 1e12)],
  ['legDeadlineMs 0', (h) => (h.log._certification.legDeadlineMs = 0)],
  ['filter garbage', (h) => (h.log._certification.filter = '((((')],
  ['filter object', (h) => (h.log._certification.filter = { a: 1 })],
  ['replaySuite garbage', (h) => (h.log._certification.replaySuite = { suite: 5 })],
  ['requireBehavior "yes"', (h) => (h.log._certification.requireBehavior = 'yes')],
  ['seed empty', (h) => (h.log._certification.seed = '')],
  ['checkKeys "no"', (h) => (h.log._certification.checkKeys = 'no')],
  [
    'one SSE text edited, its chunks left',
    (h) => {
      const e = h.log.entries.find((x: Obj) => x.response._chunks && /"type":"eval.scored"/.test(x.response.content.text ?? ''));
      e.response.content.text = e.response.content.text.replace(/"score":1/, '"score":0');
    },
  ],
  [
    'one SSE chunks edited, its text left',
    (h) => {
      const e = h.log.entries.find((x: Obj) => x.response._chunks && /"type":"eval.scored"/.test(x.response.content.text ?? ''));
      for (const c of e.response._chunks) c.text = c.text.replace(/"score":1,/, '"score":0,');
    },
  ],
  [
    'an entry with a huge time, answered again',
    (h) => {
      for (const e of h.log.entries) e.time = 1e13;
    },
  ],
  ['no-answer failure on discovery', (h) => {
    const e = h.log.entries.find((x: Obj) => /well-known/.test(x.request.url));
    e.response._failure = 'no-answer';
  }],
  ['stream _endedBy harness on every stream', (h) => {
    for (const e of h.log.entries) if (e.response._chunks) e.response._endedBy = 'harness';
  }],
];
for (const [name, edit] of cases) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const har = JSON.parse(JSON.stringify(har0)) as Obj;
  edit(har);
  const dir = join('/tmp/a9re', name.replace(/\W+/g, '-'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bytes = gzipSync(JSON.stringify(har));
  writeFileSync(join(dir, 'b.json'), JSON.stringify(bundle));
  writeFileSync(join(dir, 'a.har.gz'), bytes);
  writeFileSync(join(dir, 'a.har.gz.sig.json'), JSON.stringify(bindArchive(bytes, bundle, PRIV, bundle.signature.keyId)));
  const t0 = Date.now();
  const r = spawnSync('node', ['bin/openwop-eval-conformance.mjs', 'verify', join(dir, 'b.json'), '--replay', join(dir, 'a.har.gz'), '--host-key', PUB], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim() !== '');
  console.log(`== ${name}: exit ${r.status} signal ${r.signal} ${Date.now() - t0} ms`);
  for (const l of lines.slice(0, 6)) console.log(`   ${l.slice(0, 260)}`);
  if (lines.length > 6) console.log(`   … ${lines.length - 6} more; last: ${lines.at(-1)!.slice(0, 260)}`);
}
void execFileSync;
