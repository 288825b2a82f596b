// node bundle-diff.mjs A.json B.json : the members where two bundles differ (JSON paths), the rows included
import fs from 'node:fs';
const [a, b] = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
const out = [];
(function walk(x, y, path) {
  if (JSON.stringify(x) === JSON.stringify(y)) return;
  if (x && y && typeof x === 'object' && typeof y === 'object') {
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k], `${path}.${k}`);
  } else out.push(`${path}: ${JSON.stringify(x)?.slice(0, 80)} | ${JSON.stringify(y)?.slice(0, 80)}`);
})(a, b, '$');
console.log(out.length === 0 ? 'identical' : out.join('\n'));
