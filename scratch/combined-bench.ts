// Scratch: one pass for "a form or an escape" against the two passes Redactor.text makes, over the archive's bodies.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { homedir } from 'node:os';
import { pemSecrets } from '../lib/redact.ts';
const dir = `${homedir()}/.config/openwop-eval-conformance/`;
const pem = readFileSync(dir + readdirSync(dir).find((f) => f.endsWith('.pem'))!, 'utf8');
const har = JSON.parse(gunzipSync(readFileSync('evidence/reference-host.archive.har.gz')).toString('utf8'));
const texts: string[] = har.log.entries.flatMap((e: { response: { content: { text?: string }; headers: { value: string }[] } }) => [e.response.content.text ?? '', ...e.response.headers.map((h) => h.value)]);
const secrets = ['ow2k_tenant_a_dev_key', 'ow2k_tenant_b_dev_key', ...pemSecrets(pem)];
const forms = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]))].sort((a, b) => b.length - a.length);
const esc = (f: string) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyForm = new RegExp(forms.map(esc).join('|'));
const SPELLED = /\\u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})/g;
const combined = new RegExp(`${forms.map(esc).join('|')}|\\\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}`);
const escapeOnly = /\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}/;
console.log(texts.length, 'texts', texts.reduce((n, t) => n + t.length, 0), 'chars');
for (let round = 0; round < 4; round++) {
  let t = performance.now(); let n = 0;
  for (const x of texts) { if (anyForm.test(x)) n++; SPELLED.lastIndex = 0; if (SPELLED.exec(x)) n++; }
  const a = performance.now() - t; t = performance.now(); let m = 0;
  for (const x of texts) if (combined.test(x)) m++;
  const b = performance.now() - t; t = performance.now(); let k = 0;
  for (const x of texts) { if (anyForm.test(x)) k++; if (escapeOnly.test(x)) k++; }
  const c = performance.now() - t;
  console.log(`two passes (exec) ${a.toFixed(2)} ms (${n}); one combined ${b.toFixed(2)} ms (${m}); two passes (test) ${c.toFixed(2)} ms (${k})`);
}
