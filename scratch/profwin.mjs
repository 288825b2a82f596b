// Scratch: a .cpuprofile's samples by time window: busy ms, idle ms, GC, top self functions (with file:line), and top "interesting" frames on the stack.
import { readFileSync } from 'node:fs';
const [file, bucketArg, fromArg, toArg] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const bucket = Number(bucketArg ?? 50);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
let t = 0;
const windows = new Map();
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const ms = t / 1000;
  if (fromArg && ms < Number(fromArg)) continue;
  if (toArg && ms > Number(toArg)) continue;
  const w = Math.floor(ms / bucket);
  const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
  if (!windows.has(w)) windows.set(w, { busy: 0, idle: 0, gc: 0, self: new Map(), stack: new Map() });
  const W = windows.get(w);
  const n = byId.get(p.samples[i]);
  const fn = n.callFrame.functionName;
  if (fn === '(idle)') { W.idle += dt; continue; }
  W.busy += dt;
  if (fn === '(garbage collector)') W.gc += dt;
  const k = name(n); W.self.set(k, (W.self.get(k) ?? 0) + dt);
  // stack frames: collect unique names of frames under project code (not node internals)
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const m = byId.get(id); const u = m.callFrame.url;
    if (!/dist\/|commands|lib\//.test(u) && !/bundle\/command|reference-host/.test(u)) continue;
    const kk = name(m); if (seen.has(kk)) continue; seen.add(kk);
    W.stack.set(kk, (W.stack.get(kk) ?? 0) + dt);
  }
}
for (const [w, W] of [...windows].sort((a, b) => a[0] - b[0])) {
  const top = [...W.self].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${v.toFixed(1)} ${k}`).join(' | ');
  console.log(`${(w * bucket).toString().padStart(5)} busy ${W.busy.toFixed(0).padStart(3)} idle ${W.idle.toFixed(0).padStart(3)} gc ${W.gc.toFixed(0)}  ${top}`);
  if (process.env.STACK) for (const [k, v] of [...W.stack].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.STACK))) console.log(`        ${v.toFixed(1)} ${k}`);
}
