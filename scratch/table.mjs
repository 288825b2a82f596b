// Per-file CPU table from measure-setup.ts's and child-cpu.cjs's records.
import { readFileSync } from 'node:fs';
const [filesPath, childPath] = process.argv.slice(2);
const files = readFileSync(filesPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const kids = childPath ? readFileSync(childPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
const rel = (f) => f?.replace(/^.*?\/(test|scenarios|hosts)\//, '$1/');
const byFile = new Map();
for (const k of kids) {
  if (!k.file) continue;
  const e = byFile.get(rel(k.file)) ?? { n: 0, cpu: 0, top: new Map() };
  e.n++; e.cpu += k.cpu;
  const key = k.argv.slice(1, 4).map((a) => a.replace(/^.*\/(bin|node_modules|dist)\//, '$1/')).join(' ');
  e.top.set(key, (e.top.get(key) ?? 0) + k.cpu);
  byFile.set(rel(k.file), e);
}
const rows = files.map((f) => ({ file: rel(f.file), self: f.self, children: f.children, total: f.self + f.children, wall: f.wall, node: byFile.get(rel(f.file)) }));
rows.sort((a, b) => b.total - a.total);
let sum = 0, sumSelf = 0, sumCh = 0;
console.log('| file | fork CPU-s | children CPU-s (reaped) | total | wall s | node children: n, CPU-s, largest |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  sum += r.total; sumSelf += r.self; sumCh += r.children;
  const top = r.node ? [...r.node.top].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('; ') : '';
  console.log(`| ${r.file} | ${r.self.toFixed(2)} | ${r.children.toFixed(2)} | ${r.total.toFixed(2)} | ${r.wall.toFixed(1)} | ${r.node ? `${r.node.n}, ${r.node.cpu.toFixed(2)}, ${top}` : ''} |`);
}
console.log(`| all ${rows.length} files | ${sumSelf.toFixed(1)} | ${sumCh.toFixed(1)} | ${sum.toFixed(1)} | | |`);
