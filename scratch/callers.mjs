import fs from 'node:fs';
const target = process.argv[2]; const files = process.argv.slice(3); const by = new Map(); let n = files.length;
for (const f of files) { const p = JSON.parse(fs.readFileSync(f, 'utf8'));
  const byId = new Map(p.nodes.map(x => [x.id, x])); const parent = new Map();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  for (let i = 0; i < p.samples.length; i++) { let cur = p.samples[i]; const t = p.timeDeltas[i] ?? 0;
    const chain = []; while (cur !== undefined) { const cf = byId.get(cur).callFrame; chain.push(`${cf.functionName||'(anon)'}:${cf.lineNumber}`); cur = parent.get(cur); }
    const idx = chain.findIndex(c => c.startsWith(target + ':')); if (idx < 0) continue;
    let j = idx + 1; while (j < chain.length && chain[j].startsWith(target + ':')) j++;
    const k = chain.slice(j, j + 3).join(' < '); by.set(k, (by.get(k) ?? 0) + t); } }
console.log([...by].sort((a,b)=>b[1]-a[1]).slice(0, 12).map(([k,v])=>`${(v/1000/n).toFixed(1)}\t${k}`).join('\n'));
