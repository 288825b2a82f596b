// Scratch: the whole-text secret check of the archive (lib/archive/write.ts) on the archive npm start wrote, part by part.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { homedir } from 'node:os';
import { Redactor, pemSecrets } from '../lib/redact.ts';
const dir = `${homedir()}/.config/openwop-eval-conformance/`;
const pemFile = readdirSync(dir).find((f) => f.endsWith('.pem'))!;
const pem = readFileSync(dir + pemFile, 'utf8');
const text = gunzipSync(readFileSync('evidence/reference-host.archive.har.gz')).toString('utf8');
const r = new Redactor(['ow2k_tenant_a_dev_key', 'ow2k_tenant_b_dev_key', ...pemSecrets(pem)]);
console.log('text', text.length, 'secrets', r.size);
const SPELLED_OLD = /(?<!\\)(?:\\\\)*\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2}/;
const SPELLED_ALL = /(?<=(?:^|[^\\])(?:\\\\)*)\\u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})/g;
const t = (label: string, f: () => unknown) => { const a = performance.now(); const v = f(); console.log(label, (performance.now() - a).toFixed(2), 'ms', typeof v === 'string' ? v.length : v); return v; };
for (let i = 0; i < 3; i++) {
  t('text()', () => r.text(text));
  t('SPELLED.test', () => SPELLED.test(text));
  t('match count', () => (text.match(new RegExp(SPELLED.source, 'g')) ?? []).length);
  t('decode', () => text.replace(SPELLED_ALL, (w: string) => w));
  t('includes x1', () => text.includes('ow2k_tenant_a_dev_key'));
}
console.log((text.match(new RegExp(SPELLED.source, 'g')) ?? []).slice(0, 20));
