import fs from 'node:fs';
const target = process.argv[2];
const p = JSON.parse(fs.readFileSync('/tmp/prof/heap.json', 'utf8'));
const sizeById = new Map(); for (const s of p.samples) sizeById.set(s.nodeId, (sizeById.get(s.nodeId) ?? 0) + s.size);
const by = new Map();
(function walk(n, chain) { const cf = n.callFrame; const name = `${cf.functionName||'(anon)'}:${cf.lineNumber}`;
  const c2 = [name, ...chain];
  if ((cf.functionName) === target) { const sz = sizeById.get(n.id) ?? 0; if (sz) { const k = chain.slice(0, +(process.argv[3]??3)).join(' < '); by.set(k, (by.get(k) ?? 0) + sz); } }
  for (const c of n.children) walk(c, c2); })(p.head, []);
console.log([...by].sort((a,b)=>b[1]-a[1]).slice(0,12).map(([k,v])=>`${(v/1e6).toFixed(2)}\t${k}`).join('\n'));
