// node children.mjs 'REGEX' FILES... : time under frames matching REGEX (name:line), split by the direct child frame (or self)
import fs from 'node:fs';
const re = new RegExp(process.argv[2]); const files = process.argv.slice(3); const n = files.length; const by = new Map();
for (const f of files) { const p = JSON.parse(fs.readFileSync(f, 'utf8'));
  const byId = new Map(p.nodes.map(x => [x.id, x])); const parent = new Map();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const name = (id) => { const cf = byId.get(id).callFrame; return `${cf.functionName||'(anon)'}:${cf.lineNumber}`; };
  for (let i = 0; i < p.samples.length; i++) { const t = p.timeDeltas[i] ?? 0; let cur = p.samples[i]; let child = '(self)';
    // find the outermost? no: the innermost matching frame
    while (cur !== undefined && !re.test(name(cur))) { child = name(cur); cur = parent.get(cur); }
    if (cur === undefined) continue; by.set(child, (by.get(child) ?? 0) + t); } }
const tot = [...by.values()].reduce((a, b) => a + b, 0);
console.log(`total ${(tot/1000/n).toFixed(1)}`);
console.log([...by].sort((a,b)=>b[1]-a[1]).slice(0, 25).map(([k,v])=>`${(v/1000/n).toFixed(1)}\t${k}`).join('\n'));
