// node tp-summary.mjs FILE : medians of wall and CPU (user + system) before and after, and how many pairs are lower after
import fs from 'node:fs';
const rows = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => l.split(' '));
const by = { before: [], after: [] };
for (const [pair, side, wall, user, sys, , load] of rows) by[side][+pair - 1] = { wall: +wall, cpu: +user + +sys, load: +load };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
for (const k of ['wall', 'cpu']) {
  const b = by.before.map((r) => r[k]), a = by.after.map((r) => r[k]);
  const lower = a.filter((x, i) => x < b[i]).length, equal = a.filter((x, i) => x === b[i]).length;
  console.log(`${k}: before median ${median(b).toFixed(3)} [${b.map((x) => x.toFixed(2)).join(" ")}], after median ${median(a).toFixed(3)} [${a.map((x) => x.toFixed(2)).join(" ")}]; after lower in ${lower} of ${a.length} pairs (${equal} equal)`);
}
console.log(`load ${Math.min(...rows.map((r) => +r[6]))}–${Math.max(...rows.map((r) => +r[6]))}`);
