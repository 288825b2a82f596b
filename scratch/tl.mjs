import fs from 'node:fs';
const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const names = process.argv.slice(3);
const byId = new Map(p.nodes.map(n => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = p.startTime; const r = {};
for (let i = 0; i < p.samples.length; i++) { t += p.timeDeltas[i]; let cur = p.samples[i];
  const st = new Set(); while (cur !== undefined) { st.add(byId.get(cur).callFrame.functionName); cur = parent.get(cur); }
  for (const n of names) if (st.has(n)) { r[n] ??= [t, t, 0]; r[n][1] = t; r[n][2]++; } }
for (const n of names) if (r[n]) console.log(n, ((r[n][0]-p.startTime)/1000).toFixed(0), ((r[n][1]-p.startTime)/1000).toFixed(0), 'samples', r[n][2]);
console.log('end', ((p.endTime-p.startTime)/1000).toFixed(0));
