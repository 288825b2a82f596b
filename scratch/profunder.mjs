// Scratch: in a .cpuprofile, the samples whose stack holds a frame named ARG2: total, and their self time by function (top N) and by the frames just under it.
import { readFileSync } from 'node:fs';
const [file, fname, topArg] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
let total = 0; const self = new Map(); const under = new Map();
for (let i = 0; i < p.samples.length; i++) {
  const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
  let prev = null; let hit = false; let child = null;
  for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) { const n = byId.get(id); if (n.callFrame.functionName === fname) { hit = true; child = prev; break; } prev = n; }
  if (!hit) continue;
  total += dt;
  const leaf = name(byId.get(p.samples[i])); self.set(leaf, (self.get(leaf) ?? 0) + dt);
  const c = child ? name(child) : '(self)'; under.set(c, (under.get(c) ?? 0) + dt);
}
const N = Number(topArg ?? 15);
console.log(`${fname}: ${total.toFixed(1)} ms`);
console.log(' by leaf:'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, N)) console.log(`  ${v.toFixed(1)} ${k}`);
console.log(' by callee:'); for (const [k, v] of [...under].sort((a, b) => b[1] - a[1]).slice(0, N)) console.log(`  ${v.toFixed(1)} ${k}`);
