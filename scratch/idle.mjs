// node idle.mjs PROFILE : idle ms per 20 ms bucket of the command's thread
import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map(n => [n.id, n]));
let t = p.startTime; const b = new Map();
for (let i = 0; i < p.samples.length; i++) { const d = p.timeDeltas[i]; t += d; const fn = byId.get(p.samples[i]).callFrame.functionName;
  if (fn === '(idle)') { const k = Math.floor((t - p.startTime) / 20000) * 20; b.set(k, (b.get(k) ?? 0) + d / 1000); } }
console.log([...b].map(([k, v]) => `${k}:${v.toFixed(0)}`).join(' '));
