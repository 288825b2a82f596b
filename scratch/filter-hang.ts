// The replay of an archive whose filter backtracks without end, with the binding re-signed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { bindArchive } from '../lib/evidence/archive.ts';
const KEYDIR = join(homedir(), '.config/openwop-eval-conformance');
const PRIV = readFileSync(join(KEYDIR, 'dev-signing-key.pem'), 'utf8');
const bundle = JSON.parse(readFileSync('/tmp/a9ev/b.json', 'utf8'));
const har = JSON.parse(gunzipSync(readFileSync('/tmp/a9ev/a.har.gz')).toString('utf8'));
har.log._certification.filter = '^(.*.*)*X$';
mkdirSync('/tmp/a9re/filter-hang', { recursive: true });
const bytes = gzipSync(JSON.stringify(har));
writeFileSync('/tmp/a9re/filter-hang/b.json', JSON.stringify(bundle));
writeFileSync('/tmp/a9re/filter-hang/a.har.gz', bytes);
writeFileSync('/tmp/a9re/filter-hang/a.har.gz.sig.json', JSON.stringify(bindArchive(bytes, bundle, PRIV, bundle.signature.keyId)));
