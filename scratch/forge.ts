// Red-team round 6, surface 1: tampered evidence an attacker could publish, run through the
// README's verify commands (`verify B --host-key PUB`, `verify B --replay A --host-key PUB`).
//
//   npx tsx scratch/forge.ts [name ...]
//
// Two attackers: a third party without the key (edits bytes, cannot re-sign), and the signing
// vendor (re-signs bundle, eval certificate and binding with its own key; only the replay can
// catch what it edits). Prints per forgery the exit codes and the first rejection lines.

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { cli, hostFlags } from '../test/support/cli.ts';
import { bindArchive } from '../lib/evidence/archive.ts';
import { signaturePayload } from '../lib/evidence/bundle.ts';
import { ed25519PrivateKey, signText } from '../lib/evidence/ed25519.ts';
import { signEvalCertificate } from '../lib/evidence/eval-certificate.ts';
import { thisHarness } from '../lib/evidence/harness.ts';
import { canonicalJson, sha256Hex } from '../lib/evidence/jcs.ts';
import { profileVerdicts, verdictText } from '../lib/evidence/profiles.ts';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { totalsOf, witnessDigest } from '../lib/evidence/witness.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';

// biome-ignore lint/suspicious/noExplicitAny: a forger reaches into untyped JSON
type Obj = Record<string, any>;
const KEYDIR = join(homedir(), '.config/openwop-eval-conformance');
const PRIV = readFileSync(join(KEYDIR, 'dev-signing-key.pem'), 'utf8');
const PUB = join(KEYDIR, 'dev-signing-key.pub.pem');
const ROOT = '/tmp/rt6';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

interface Set4 {
  bundle: Obj;
  bundleText?: string; // raw text, when a forgery edits bytes the JSON model cannot say
  cert: Obj;
  archive: Buffer;
  binding: Obj;
}

function load(dir: string, stem: string): Set4 {
  return {
    bundle: JSON.parse(readFileSync(join(dir, `${stem}.bundle.json`), 'utf8')),
    cert: JSON.parse(readFileSync(join(dir, `${stem}.bundle.eval-certificate.json`), 'utf8')),
    archive: readFileSync(join(dir, `${stem}.archive.har.gz`)),
    binding: JSON.parse(readFileSync(join(dir, `${stem}.archive.har.gz.sig.json`), 'utf8')),
  };
}

function write(name: string, s: Set4): { bundle: string; archive: string } {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bundle = join(dir, 'b.json');
  writeFileSync(bundle, s.bundleText ?? JSON.stringify(s.bundle, null, 2));
  writeFileSync(join(dir, 'b.eval-certificate.json'), JSON.stringify(s.cert, null, 2));
  const archive = join(dir, 'b.archive.har.gz');
  writeFileSync(archive, s.archive);
  writeFileSync(`${archive}.sig.json`, JSON.stringify(s.binding, null, 2));
  return { bundle, archive };
}

const rowsOf = (b: Obj): LedgerRow[] => b.results.requirements;

/** Recomputes every derived member of the bundle (totals, digest, count, detail); no re-signing. */
function rederive(b: Obj): void {
  const rows = rowsOf(b);
  b.results.totals = totalsOf(rows);
  b.witnessSha256 = witnessDigest(rows, b.host.relaxations, b.host.deployment);
  b.assertionCount = rows.reduce((t, r) => t + (r.assertions ?? 0), 0);
  const nonPass = rows.filter((r) => r.result !== 'executed-pass').map((r) => ({ id: r.id, result: r.result, reason: r.detail }));
  if (nonPass.length > 0) b.detail = { ...(b.detail ?? {}), nonPass };
  else delete b.detail;
}

/** The vendor's re-signing: bundle, eval certificate, binding, all with its own key. */
function resignAll(s: Set4): void {
  const b = s.bundle;
  b.discovery.sha256 = sha256Hex(canonicalJson(b.discovery.document));
  b.signature.sig = signText(signaturePayload(b as never), ed25519PrivateKey(PRIV));
  const verdicts = profileVerdicts(thisHarness().profiles, b.discovery.document, rowsOf(b));
  const keyId = b.signature.keyId;
  s.cert = signEvalCertificate(
    {
      harness: { name: thisHarness().name, version: thisHarness().version },
      generatedAt: s.cert.generatedAt,
      bundle: b,
      archive: s.archive,
      seed: s.cert.seed,
      verdict: verdictText(verdicts),
      profiles: verdicts,
      rows: rowsOf(b),
    },
    PRIV,
    keyId,
  ) as unknown as Obj;
  s.binding = bindArchive(s.archive, b, PRIV, keyId) as unknown as Obj;
}

function editArchive(s: Set4, edit: (har: Obj) => void): void {
  const har = JSON.parse(gunzipSync(s.archive).toString('utf8'));
  edit(har);
  s.archive = gzipSync(JSON.stringify(har));
}

type Forgery = { name: string; who: 'third-party' | 'vendor'; what: string; make: (s: Set4) => void; base?: string };

const inapplicable = (b: Obj): LedgerRow => rowsOf(b).find((r) => r.result === 'inapplicable')!;

const FORGERIES: Forgery[] = [
  {
    name: 'f01-flip-digest-left',
    who: 'third-party',
    what: 'an inapplicable row flipped to executed-pass (1 assertion), digest left',
    make: (s) => Object.assign(inapplicable(s.bundle), { result: 'executed-pass', assertions: 1, detail: undefined }),
  },
  {
    name: 'f02-flip-digest-recomputed',
    who: 'third-party',
    what: 'flipped, totals/digest/detail recomputed, not re-signed',
    make: (s) => {
      const r = inapplicable(s.bundle);
      Object.assign(r, { result: 'executed-pass', assertions: 1 });
      delete r.detail;
      rederive(s.bundle);
    },
  },
  {
    name: 'f03-row-dropped',
    who: 'third-party',
    what: 'a passing row dropped, derived members recomputed, not re-signed',
    make: (s) => {
      s.bundle.results.requirements = rowsOf(s.bundle).filter((r) => r.id !== 'openwop.requirement.0081.eval-run-events');
      rederive(s.bundle);
    },
  },
  {
    name: 'f04-row-duplicated',
    who: 'third-party',
    what: 'a row duplicated, totals/count left',
    make: (s) => s.bundle.results.requirements.push(clone(rowsOf(s.bundle)[0])),
  },
  {
    name: 'f05-totals-disagree',
    who: 'third-party',
    what: 'totals say one more pass and one fewer inapplicable',
    make: (s) => {
      s.bundle.results.totals.executedPass++;
      s.bundle.results.totals.inapplicable--;
    },
  },
  {
    name: 'f06-signature-other-bytes',
    who: 'third-party',
    what: 'a valid signature by the same key over another payload (other build id)',
    make: (s) => {
      const other = clone(s.bundle);
      other.host.build.id = '0'.repeat(40);
      s.bundle.signature.sig = signText(signaturePayload(other as never), ed25519PrivateKey(PRIV));
    },
  },
  {
    name: 'f07-keyid-swapped',
    who: 'third-party',
    what: 'signature.keyId and host.signingKeyId renamed to a production-looking id (dev label dropped)',
    make: (s) => {
      s.bundle.signature.keyId = 'acme-prod-2026';
      s.bundle.host.signingKeyId = 'acme-prod-2026';
    },
  },
  {
    name: 'f08-claims-underived-profile',
    who: 'third-party',
    what: 'claimedProfiles marks openwop-core-standard certified (unsigned member)',
    make: (s) => s.bundle.claimedProfiles.push({ id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 5, certified: true }),
  },
  {
    name: 'f09-cert-profile-added',
    who: 'third-party',
    what: 'eval certificate verdict text edited to add a profile (signature left)',
    make: (s) => {
      s.cert.verdict = `${s.cert.verdict}, openwop-eval-live-everything`;
    },
  },
  {
    name: 'f10-other-harness-version',
    who: 'vendor',
    what: 'suite.version 0.0.9 (another harness version), re-signed',
    make: (s) => {
      s.bundle.suite.version = '0.0.9';
      resignAll(s);
    },
  },
  {
    name: 'f11-jcs-spelling',
    who: 'third-party',
    what: 'raw text: keys reordered, assertions 2 as 2.0e0, an id with \\u escapes (same meaning)',
    make: (s) => {
      const text = JSON.stringify(s.bundle)
        .replace('"assertions":2,', '"assertions":2.0e0,')
        .replace('"id":"openwop.requirement.0081.eval-run-events"', '"id":"openwop.requirement.0081.eval\\u002drun\\u002devents"');
      s.bundleText = text;
    },
  },
  {
    name: 'f12-jcs-duplicate-key',
    who: 'third-party',
    what: 'raw text: an inapplicable row carries "result" twice, last "inapplicable", first "executed-pass"',
    make: (s) => {
      const r = inapplicable(s.bundle);
      const text = JSON.stringify(s.bundle).replace(`{"id":"${r.id}",`, `{"result":"executed-pass","id":"${r.id}",`);
      s.bundleText = text;
    },
  },
  {
    name: 'f13-archive-answer-edited',
    who: 'third-party',
    what: 'archive: one summary answer edited (aggregateScore), binding left',
    make: (s) =>
      editArchive(s, (har) => {
        const e = har.log.entries.find((x: Obj) => x.request.url.endsWith('/eval-summary') && x.response.status === 200);
        e.response.content.text = e.response.content.text.replace('"aggregateScore":', '"aggregateScore":0.5,"_x":');
      }),
  },
  {
    name: 'f14-gzip-member-appended',
    who: 'third-party',
    what: 'archive: a second gzip member appended (an extra exchange)',
    make: (s) => {
      s.archive = Buffer.concat([s.archive, gzipSync('{"extra":true}')]);
    },
  },
  {
    name: 'f15-archive-exchange-dropped-resigned',
    who: 'vendor',
    what: 'archive: an exchange dropped, binding re-signed',
    make: (s) => {
      editArchive(s, (har) => {
        const i = har.log.entries.findIndex((x: Obj) => x.request.url.endsWith('/eval-summary') && x.response.status === 200);
        har.log.entries.splice(i, 1);
      });
      resignAll(s);
    },
  },
  {
    name: 'f16-archive-exchange-duplicated-resigned',
    who: 'vendor',
    what: 'archive: every exchange duplicated (each answer twice), binding re-signed',
    make: (s) => {
      editArchive(s, (har) => {
        har.log.entries = har.log.entries.flatMap((e: Obj) => [e, clone(e)]);
      });
      resignAll(s);
    },
  },
  {
    name: 'f17-vendor-row-flipped',
    who: 'vendor',
    what: 'an inapplicable row flipped to pass, everything re-signed (replay must move it)',
    make: (s) => {
      const r = inapplicable(s.bundle);
      Object.assign(r, { result: 'executed-pass', assertions: 1 });
      delete r.detail;
      rederive(s.bundle);
      resignAll(s);
    },
  },
  {
    name: 'f18-vendor-discovery-narrowed',
    who: 'vendor',
    base: 'bad',
    what: 'known-bad live-shadow host: bundle discovery drops live-shadow from modes, re-signed; rows untouched',
    make: (s) => {
      const ev = s.bundle.discovery.document.agents.evalSuite;
      ev.modes = ev.modes.filter((m: string) => m !== 'live-shadow');
      resignAll(s);
    },
  },
];

async function badBase(): Promise<void> {
  const dir = join(ROOT, 'bad-src');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bad = KNOWN_BAD_HOSTS.find((h) => h.name === 'live-shadow-injects-fixtures')!;
  const host = await startReferenceHost({
    log: () => {},
    ...bad.options,
    port: 0,
    dbPath: ':memory:',
    tenants: { a: { apiKey: 'ow2k_rt6_a_4f1c9e' }, b: { apiKey: 'ow2k_rt6_b_7d2a01' } },
  });
  try {
    const r = await cli(
      'run',
      '--certify',
      join(dir, 'bad.bundle.json'),
      '--archive',
      join(dir, 'bad.archive.har.gz'),
      '--progress',
      'none',
      '--signing-key',
      join(KEYDIR, 'dev-signing-key.pem'),
      '--signing-key-id',
      'acme-vendor-1',
      '--host-build',
      'commit:1e4a119c9a9c61996afadf9ca59c5b49872bfc48',
      ...hostFlags(host),
    );
    console.log(`[bad base] run exit ${r.code}: ${r.out.split('\n').find((l) => l.startsWith('eval verdict')) ?? ''} ${r.err.slice(0, 400)}`);
  } finally {
    await host.close();
  }
}

const firstLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^(rejected|authenticity|eval verdict|binding|replay|row |witness|note)/.test(l))
    .slice(0, 6)
    .map((l) => `      ${l.slice(0, 260)}`)
    .join('\n');

mkdirSync(ROOT, { recursive: true });
const wanted = process.argv.slice(2);
const list = wanted.length ? FORGERIES.filter((f) => wanted.includes(f.name)) : FORGERIES;
if (list.some((f) => f.base === 'bad')) await badBase();
for (const f of list) {
  const s = f.base === 'bad' ? load(join(ROOT, 'bad-src'), 'bad') : load('/work/wt/redteam6/evidence', 'reference-host');
  f.make(s);
  const paths = write(f.name, s);
  const v = await cli('verify', paths.bundle, '--host-key', PUB);
  const r = await cli('verify', paths.bundle, '--replay', paths.archive, '--host-key', PUB);
  console.log(`${f.name} [${f.who}] ${f.what}\n   verify exit ${v.code}; replay exit ${r.code}\n${firstLines(v.out + v.err)}\n${firstLines(r.out + r.err)}`);
}
copyFileSync; // keep the import list honest for quick edits
