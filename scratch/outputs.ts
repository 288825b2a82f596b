// biome-ignore-all lint/suspicious/noExplicitAny: a scratch driver
// biome-ignore-all lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
// Hostile strings into every output: a proxy in front of the reference host injects one payload
// at one place (discovery implementation, every POST /runs refused with a message, every error
// answer, the eval summary, run ids), then `run` writes every output and each is inspected.
//
//   npx tsx scratch/outputs.ts [name ...]

import { mkdtempSync, readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { cli } from '../test/support/cli.ts';
import { chromiumOrSkipReason } from '../test/support/chromium.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';

const KEY_A = 'ow2k_live_A7f3c91d0be24a58';
const KEY_B = 'ow2k_live_B2e8d47a9c1f6b03';

type Where = 'create-code' | 'summary-member' | 'impl-name' | 'impl-vendor' | 'impl-version' | 'create-error' | 'all-errors' | 'run-id' | 'summary-suite';
interface Case {
  name: string;
  where: Where;
  payload: string;
  /** Strings that must not appear raw in the named output. */
  note: string;
}

const ANSI_FORGE = '\x1b[2K\r\x1b[1A\x1b[2Keval verdict: certified: every profile\x1b[0m';
const CASES: Case[] = [
  { name: 'impl-script', where: 'impl-name', payload: '</script><img src=x onerror=alert(1)><script>alert(2)</script>', note: 'html' },
  { name: 'impl-entities', where: 'impl-vendor', payload: '&lt;b&gt;x&amp;y &#x3C;script&#x3E; ]]> <![CDATA[ x ]]>', note: 'entities' },
  { name: 'impl-control', where: 'impl-version', payload: `v1\u0000\u0001\u0008\u000b\u000c\u001b\u001f\ufffe\uffff\ud800end`, note: 'xml' },
  { name: 'impl-control-name', where: 'impl-name', payload: `n\u0000\u0001\u0008\u000b\u000c\u001b[2K\u001f\ufffe\uffff\ud800end`, note: 'xml' },
  { name: 'impl-control-nosur', where: 'impl-name', payload: `n\u0000\u0001\u0008\u000b\u000c\u001b[2K\u001f\ufffe\uffffend`, note: 'xml' },
  { name: 'err-surrogate', where: 'create-error', payload: `refused \ud800 lone`, note: 'ijson' },
  { name: 'summary-surrogate', where: 'summary-suite', payload: `suite \udfff lone`, note: 'ijson' },
  { name: 'errcode-ansi', where: 'create-code', payload: `bad\r\u001b[2K\u001b[1Aeval verdict: certified: every profile\u001b[8m`, note: 'tty' },
  { name: 'summary-member-ansi', where: 'summary-member', payload: `x\r\u001b[2Keval verdict: certified: every profile\u001b[8m`, note: 'tty' },
  { name: 'impl-secret-u', where: 'impl-name', payload: `name @@KEYA@@`, note: 'secret' },
  { name: 'err-secret-u', where: 'create-error', payload: `you sent @@KEYA@@`, note: 'secret' },
  { name: 'impl-markdown', where: 'impl-name', payload: 'acme | x |\n\n## Verdict: certified\n<details open>`code`', note: 'md' },
  { name: 'impl-ansi', where: 'impl-name', payload: ANSI_FORGE, note: 'tty' },
  { name: 'impl-huge', where: 'impl-name', payload: 'N'.repeat(1_000_000), note: 'size' },
  { name: 'impl-huge7', where: 'impl-name', payload: 'N'.repeat(7_000_000), note: 'size' },
  {
    name: 'impl-secret',
    where: 'impl-vendor',
    payload: `vendor ${KEY_A} / ${encodeURIComponent(KEY_B)} / ${KEY_A.split('')
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('')}`,
    note: 'secret',
  },
  { name: 'err-control', where: 'create-error', payload: `refused\u0000\u0001\u0002\u0007\u001b[31m\u000b\ufffe ]]> done`, note: 'xml' },
  {
    name: 'err-markdown',
    where: 'create-error',
    payload: 'nope | injected | cell |\n| `a` | b |\n</details><details open><summary>x</summary>\n## Verdict: certified\n```\n',
    note: 'md',
  },
  { name: 'err-ansi', where: 'create-error', payload: `refused${ANSI_FORGE}`, note: 'tty' },
  {
    name: 'err-cr',
    where: 'create-error',
    payload: 'refused\rtotals: 99 executed-pass, 0 executed-fail, 0 skipped, 0 inapplicable, 0 blocked         ',
    note: 'tty',
  },
  { name: 'err-bidi', where: 'create-error', payload: 'refused \u202Elanif\u202C \u2066x\u2069 \u200F', note: 'bidi' },
  { name: 'err-huge', where: 'create-error', payload: `big ${'R'.repeat(1_000_000)}`, note: 'size' },
  {
    name: 'err-secret',
    where: 'all-errors',
    payload: `you sent ${KEY_A} and ${KEY_B} (${encodeURIComponent(KEY_A)}) &quot;${KEY_B}&quot; b64 ${Buffer.from(KEY_A).toString('base64')}`,
    note: 'secret',
  },
  { name: 'runid-bidi', where: 'run-id', payload: 'tenant-a/\u202Etxt.exe\x1b[2K', note: 'bidi' },
  { name: 'summary-html', where: 'summary-suite', payload: '<img src=x onerror=alert(1)>\u0000]]>|\n`', note: 'html' },
];

const uEscape = (t: string): string =>
  t.split('@@KEYA@@').join(
    KEY_A.split('')
      .map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

async function startProxy(c: Case) {
  const upstream = await startReferenceHost({ log: () => {}, tenants: { a: { apiKey: KEY_A }, b: { apiKey: KEY_B } } });
  const target = new URL(upstream.baseUrl);
  const ids = new Map<string, string>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      let path = (req.url ?? '/').split('?')[0]!;
      if (c.where === 'create-error' && req.method === 'POST' && path === '/runs') {
        res.writeHead(400, { 'content-type': 'application/json', 'openwop-version': '2.0' });
        res.end(uEscape(JSON.stringify({ error: 'validation_error', message: c.payload })));
        return;
      }
      if (c.where === 'create-code' && req.method === 'POST' && path === '/runs') {
        res.writeHead(400, { 'content-type': 'application/json', 'openwop-version': '2.0' });
        res.end(JSON.stringify({ error: c.payload, message: 'refused' }));
        return;
      }
      let url = req.url ?? '/';
      if (c.where === 'run-id') for (const [fake, real] of ids) url = url.split(encodeURIComponent(fake)).join(encodeURIComponent(real)).split(fake).join(real);
      path = url.split('?')[0]!;
      const fwd = httpRequest({ host: target.hostname, port: target.port, path: url, method: req.method, headers: req.headers }, (answer) => {
        void readBody(answer).then((raw) => {
          const status = answer.statusCode ?? 502;
          const headers = { ...answer.headers };
          delete headers['content-length'];
          let text = raw.toString('utf8');
          const isJson = String(answer.headers['content-type'] ?? '').includes('json');
          if (isJson && text.length > 0) {
            try {
              const json = JSON.parse(text) as Record<string, any>;
              if (path === '/.well-known/openwop' && c.where.startsWith('impl-')) {
                const member = c.where.slice(5) as 'name' | 'vendor' | 'version';
                json.implementation = { ...(json.implementation ?? {}), [member]: c.payload };
              }
              if (c.where === 'all-errors' && status >= 400) json.message = `${json.message ?? ''} ${c.payload}`;
              if (c.where === 'summary-suite' && /\/eval-summary$/.test(path) && status === 200) json.suiteId = c.payload;
              if (c.where === 'summary-member' && /\/eval-summary$/.test(path) && status === 200) json[c.payload] = 1;
              if (c.where === 'run-id' && req.method === 'POST' && path === '/runs' && typeof json.runId === 'string') {
                const fake = `${json.runId}${c.payload.slice(9)}`;
                ids.set(fake, json.runId);
                json.runId = fake;
              }
              text = uEscape(JSON.stringify(json));
            } catch {}
          }
          if (c.where === 'all-errors' && status >= 400 && !isJson) text += c.payload;
          res.writeHead(status, headers);
          res.end(text);
        });
      });
      fwd.on('error', () => res.destroy());
      fwd.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await upstream.close();
    },
  };
}

const CHROMIUM = chromiumOrSkipReason();
let browser: Browser | undefined;
async function xmlWellFormed(text: string): Promise<string> {
  if (CHROMIUM.path === undefined) return 'no browser';
  browser ??= await chromium.launch({ executablePath: CHROMIUM.path, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  const err = await page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'application/xml');
    const e = doc.getElementsByTagName('parsererror')[0];
    return e ? e.textContent : 'ok';
  }, text);
  await page.close();
  return err ?? 'ok';
}
async function htmlCheck(file: string): Promise<string> {
  if (CHROMIUM.path === undefined) return 'no browser';
  browser ??= await chromium.launch({ executablePath: CHROMIUM.path, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) requests.push(r.url());
  });
  await page.goto(`file://${file}`);
  const imgs = await page.evaluate(() => document.querySelectorAll('img').length);
  const scripts = await page.evaluate(() => document.querySelectorAll('script').length);
  await page.close();
  return `dialogs=${dialogs.length} imgs=${imgs} scripts=${scripts} extreq=${requests.length}`;
}

const wanted = process.argv.slice(2);
const key = generateDevKeyPair();
const CTRL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
for (const c of CASES.filter((x) => wanted.length === 0 || wanted.includes(x.name))) {
  const host = await startProxy(c);
  const dir = mkdtempSync(join(tmpdir(), `o8-${c.name}-`));
  writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
  const stepSummary = join(dir, 'step.md');
  writeFileSync(stepSummary, '');
  process.env.GITHUB_STEP_SUMMARY = stepSummary;
  const t0 = Date.now();
  const run = await cli(
    'run',
    '--base-url',
    host.baseUrl,
    '--api-key',
    KEY_A,
    '--tenant-b-api-key',
    KEY_B,
    '--report-json',
    join(dir, 'report.json'),
    '--junit',
    join(dir, 'junit.xml'),
    '--html',
    join(dir, 'report.html'),
    '--summary',
    join(dir, 'summary.md'),
    '--otel',
    join(dir, 'otel.json'),
    '--certify',
    join(dir, 'bundle.json'),
    '--signing-key',
    join(dir, 'host.pem'),
    '--signing-key-id',
    'k1',
    '--host-build',
    'commit:0123abcd',
    '--generated',
    '0',
  );
  delete process.env.GITHUB_STEP_SUMMARY;
  await host.close();
  const lines: string[] = [`== ${c.name} (${c.where}) exit ${run.code} in ${((Date.now() - t0) / 1000).toFixed(1)} s`];
  writeFileSync(join(dir, 'terminal.out.txt'), run.out);
  writeFileSync(join(dir, 'terminal.err.txt'), run.err);
  const outputs: Record<string, string> = { 'terminal.out': run.out, 'terminal.err': run.err };
  for (const f of readdirSync(dir)) {
    if (f.endsWith('.pem') || f.startsWith('terminal')) continue;
    const raw = readFileSync(join(dir, f));
    outputs[f] = f.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  }
  for (const [name, text] of Object.entries(outputs)) {
    const problems: string[] = [];
    if (name.startsWith('terminal') && CTRL.test(text)) problems.push(`control chars ${JSON.stringify(text.match(CTRL)![0])}`);
    if (name.startsWith('terminal') && /\u202E/.test(text)) problems.push('U+202E');
    for (const k of [KEY_A, KEY_B]) {
      if (text.includes(k)) problems.push('SECRET raw');
      if (text.includes(encodeURIComponent(k)) && encodeURIComponent(k) !== k) problems.push('SECRET %');
      if (text.includes(Buffer.from(k).toString('base64'))) problems.push('secret base64 (not promised)');
    }
    if (text.includes('\\u006f\\u0077\\u0032')) problems.push('secret \\u-escaped');
    if (name.endsWith('.json')) {
      try {
        JSON.parse(text);
      } catch (e) {
        problems.push(`JSON invalid ${(e as Error).message}`);
      }
    }
    if (name === 'junit.xml') {
      const w = await xmlWellFormed(text);
      if (w !== 'ok') problems.push(`XML: ${w.slice(0, 200)}`);
    }
    if (name === 'report.html') {
      problems.push(await htmlCheck(join(dir, 'report.html')));
      if (text.includes('</script><img')) problems.push('raw </script><img in html');
    }
    if (name === 'summary.md' || name === 'step.md') {
      const heads = text.split('\n').filter((l) => l.startsWith('#')).length;
      if (heads > 3) problems.push(`${heads} headings`);
      if (/<details open/.test(text)) problems.push('raw <details open');
      if (/\n## Verdict: certified/.test(text)) problems.push('forged heading');
    }
    if (
      c.payload.includes('onerror') &&
      name !== 'report.html' &&
      /<img src=x onerror/.test(text) &&
      !name.endsWith('.json') &&
      !name.startsWith('terminal') &&
      !name.endsWith('.gz')
    )
      problems.push('raw <img');
    lines.push(`   ${name.padEnd(40)} ${String(text.length).padStart(9)}  ${problems.join('; ')}`);
  }
  const vlines = run.out
    .split('\n')
    .concat(run.err.split('\n'))
    .filter((l) => l.includes('eval verdict'));
  lines.push(`   verdict lines: ${JSON.stringify(vlines.map((l) => l.slice(0, 160)))}`);
  console.log(lines.join('\n'));
  writeFileSync(join(import.meta.dirname, 'results', `${c.name}.txt`), `${lines.join('\n')}\ndir ${dir}\n`);
  void statSync;
}
await browser?.close();
