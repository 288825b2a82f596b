// node compare-outputs.mjs A.json A.har.gz B.json B.har.gz : the bundles' rows (id, result, assertions, detail) equal,
// and the archives' entries (method, url, status, response text) equal as multisets; the port is set aside.
import fs from 'node:fs';
import zlib from 'node:zlib';
const [aj, ah, bj, bh] = process.argv.slice(2);
const rowsOf = (f) => {
  const b = JSON.parse(fs.readFileSync(f, 'utf8'));
  const rows = b.results?.requirements ?? b.rows ?? b.requirements;
  return rows.map((r) => JSON.stringify([r.id, r.result, r.assertions, r.detail]));
};
// What differs between any two certifications of the embedded host: its port, the ids it mints at
// random (runs, events, invocations: 32 hex digits, or a UUID), and the clock (timestamps, durations).
const portless = (s) =>
  s
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/localhost:\d+/g, 'localhost:PORT')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/[0-9a-f]{32}/g, 'HEX32')
    // ids of 22 base64url characters (16 random bytes), at least one of them a capital or a digit
    .replace(/(~2F|%2F)[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/g, '$1ID22')
    .replace(/(?<![A-Za-z0-9_-])(?=[a-z_-]*[A-Z0-9])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/g, 'ID22')
    // the seam counter's count: legs running at once bump shared keys in the order they happen to run
    .replace(/(count\\*":)\d+/g, '$1N')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME');
const entriesOf = (f) => JSON.parse(zlib.gunzipSync(fs.readFileSync(f)).toString('utf8')).log.entries.map((e) =>
  portless(JSON.stringify([e.request.method, e.request.url, e.response.status, e.response.content.text])));
const ra = rowsOf(aj), rb = rowsOf(bj);
console.log(`rows: ${ra.length} and ${rb.length}, ${JSON.stringify(ra) === JSON.stringify(rb) ? 'equal' : 'DIFFERENT'}`);
if (JSON.stringify(ra) !== JSON.stringify(rb)) for (let i = 0; i < Math.max(ra.length, rb.length); i++) if (ra[i] !== rb[i]) console.log(' A', ra[i]?.slice(0, 300), '\n B', rb[i]?.slice(0, 300));
const ea = entriesOf(ah).sort(), eb = entriesOf(bh).sort();
const same = ea.length === eb.length && ea.every((x, i) => x === eb[i]);
console.log(`archive entries: ${ea.length} and ${eb.length}, as multisets ${same ? 'equal' : 'DIFFERENT'}`);
if (!same) { const sb = new Set(eb); const diff = ea.filter((x) => !sb.has(x)); console.log(diff.length, 'of A not in B, e.g.', diff.slice(0, 3).map((d) => d.slice(0, 300))); }
// Where the texts of the entries left over differ (a timing-dependent read: how far a page or a stream got).
if (!same) {
  const sa = new Set(ea), sb = new Set(eb);
  const onlyA = ea.filter((x) => !sb.has(x)), onlyB = eb.filter((x) => !sa.has(x));
  for (let i = 0; i < Math.min(onlyA.length, onlyB.length, 6); i++) {
    const [a, b] = [JSON.parse(onlyA[i]), JSON.parse(onlyB[i])];
    let k = 0;
    while (k < a[3].length && a[3][k] === b[3][k]) k++;
    console.log(`  ${a[0]} ${a[1].replace(/^http:\/\/[^/]+/, '')} ${a[2]}/${b[2]}: ${a[3].length} / ${b[3].length} chars, first difference at ${k}: ${JSON.stringify(a[3].slice(k, k + 60))} / ${JSON.stringify(b[3].slice(k, k + 60))}`);
  }
}
