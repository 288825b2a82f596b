// Scratch: a .cpuprofile's self time by script URL and top functions.
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const byUrl = new Map(), byFn = new Map(); let busy = 0, idle = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = (p.timeDeltas[i + 1] ?? 0) / 1000; const cf = byId.get(p.samples[i]).callFrame;
  if (cf.functionName === '(idle)') { idle += dt; continue; } busy += dt;
  const u = cf.url.replace(/^.*\/(dist|node_modules)\//, '$1/') || cf.functionName;
  byUrl.set(u, (byUrl.get(u) ?? 0) + dt);
  const f = `${cf.functionName || '(anon)'} ${u}:${cf.lineNumber + 1}`; byFn.set(f, (byFn.get(f) ?? 0) + dt);
}
console.log(`busy ${busy.toFixed(1)} idle ${idle.toFixed(1)}`);
for (const [k, v] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(v.toFixed(1).padStart(7), k);
console.log('--');
for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(v.toFixed(1).padStart(7), k);
