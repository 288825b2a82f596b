// Scratch: a .cpuprofile's self time by module (the bundle's lines mapped to esbuild's `// path` comments), between two ms marks of the profile.
import { readFileSync } from 'node:fs';
const [file, bundle, fromArg, toArg] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const lines = readFileSync(bundle, 'utf8').split('\n');
const starts = []; // [line, module]
lines.forEach((l, i) => { const m = /^\/\/ (\S+\.(?:js|mjs|cjs|json))$/.exec(l); if (m) starts.push([i, m[1]]); });
const modOf = (line) => { let lo = 0, hi = starts.length - 1, r = '(head)'; while (lo <= hi) { const mid = (lo + hi) >> 1; if (starts[mid][0] <= line) { r = starts[mid][1]; lo = mid + 1; } else hi = mid - 1; } return r; };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
let t = 0; const by = new Map(); let total = 0; let idle = 0;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]; const ms = t / 1000; const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
  if (fromArg && ms < Number(fromArg)) continue; if (toArg && ms > Number(toArg)) continue;
  const n = byId.get(p.samples[i]); const cf = n.callFrame;
  if (cf.functionName === '(idle)') { idle += dt; continue; }
  total += dt;
  let k;
  if (cf.url.endsWith(bundle.split('/').pop())) k = modOf(cf.lineNumber);
  else if (cf.url === '') k = cf.functionName; else k = cf.url.replace(/^.*node_modules\//, 'nm/').replace(/^node:/, 'node:');
  by.set(k, (by.get(k) ?? 0) + dt);
}
console.log(`busy ${total.toFixed(1)} idle ${idle.toFixed(1)}`);
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40))) console.log(v.toFixed(1).padStart(7), k);
