import fs from 'node:fs';
const files = process.argv.slice(3); const incl = new Map(); const n = files.length;
for (const f of files) { const p = JSON.parse(fs.readFileSync(f, 'utf8'));
  const byId = new Map(p.nodes.map(x => [x.id, x])); const parent = new Map();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  for (let i = 0; i < p.samples.length; i++) { let cur = p.samples[i]; const t = p.timeDeltas[i] ?? 0; const seen = new Set();
    while (cur !== undefined) { const cf = byId.get(cur).callFrame; const k = `${cf.functionName||'(anon)'}:${cf.lineNumber}`; if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + t); } cur = parent.get(cur); } } }
const re = new RegExp(process.argv[2], 'i');
console.log([...incl].filter(([k]) => re.test(k)).sort((a,b)=>b[1]-a[1]).slice(0, 40).map(([k,v])=>`${(v/1000/n).toFixed(1)}\t${k}`).join('\n'));
