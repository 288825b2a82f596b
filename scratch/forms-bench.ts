// Scratch: finding any of a redactor's forms in the archive text, form by form (includes) or with one alternation.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { homedir } from 'node:os';
import { pemSecrets } from '../lib/redact.ts';
const dir = `${homedir()}/.config/openwop-eval-conformance/`;
const pem = readFileSync(dir + readdirSync(dir).find((f) => f.endsWith('.pem'))!, 'utf8');
const text = gunzipSync(readFileSync('evidence/reference-host.archive.har.gz')).toString('utf8');
const secrets = ['ow2k_tenant_a_x7Yq2kP9vL3mN8rT', 'ow2k_tenant_b_Q4wE6rT8yU0iO2pA', ...pemSecrets(pem)];
const forms = [...new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]))];
console.log('forms', forms.length, forms.map((f) => f.length));
const re = new RegExp(forms.sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
const pieces = text.split('},{');
for (let i = 0; i < 3; i++) {
  let t = performance.now();
  let hit = false;
  for (const f of forms) hit ||= text.includes(f);
  const a = performance.now() - t;
  t = performance.now();
  const h2 = re.test(text);
  const b = performance.now() - t;
  t = performance.now();
  let n = 0;
  for (const p of pieces) for (const f of forms) if (p.includes(f)) n++;
  const c = performance.now() - t;
  t = performance.now();
  for (const p of pieces) if (re.test(p)) n++;
  const d = performance.now() - t;
  console.log(`whole text: includes x${forms.length} ${a.toFixed(2)} ms, alternation ${b.toFixed(2)} ms (${hit} ${h2}); ${pieces.length} pieces: includes ${c.toFixed(2)} ms, alternation ${d.toFixed(2)} ms`);
}
