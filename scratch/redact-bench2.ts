// Scratch: Redactor.text on the archive npm start wrote, this tree's lib/redact.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { homedir } from 'node:os';
import { Redactor, pemSecrets } from '../lib/redact.ts';
const dir = `${homedir()}/.config/openwop-eval-conformance/`;
const pem = readFileSync(dir + readdirSync(dir).find((f) => f.endsWith('.pem'))!, 'utf8');
const text = gunzipSync(readFileSync(process.argv[2] ?? 'evidence/reference-host.archive.har.gz')).toString('utf8');
const r = new Redactor(['ow2k_tenant_a_dev_key', 'ow2k_tenant_b_dev_key', ...pemSecrets(pem)]);
for (let i = 0; i < 5; i++) { const a = performance.now(); const out = r.text(text); console.log('text()', (performance.now() - a).toFixed(2), 'ms', out === text); }
