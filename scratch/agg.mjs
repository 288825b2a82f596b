import fs from 'node:fs';
const files = process.argv.slice(3); const self = new Map(); let total = 0;
for (const f of files) { const p = JSON.parse(fs.readFileSync(f, 'utf8'));
  const byId = new Map(p.nodes.map(n => [n.id, n]));
  for (let i = 0; i < p.samples.length; i++) { const cf = byId.get(p.samples[i]).callFrame; const t = p.timeDeltas[i] ?? 0; total += t;
    const k = `${cf.functionName || '(anon)'} ${cf.url.split('/').slice(-1)[0]}:${cf.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); } }
const n = files.length;
console.log('per run ms', (total/1000/n).toFixed(0));
console.log([...self].sort((a,b)=>b[1]-a[1]).slice(0, +process.argv[2]).map(([k,v])=>`${(v/1000/n).toFixed(1)}\t${k}`).join('\n'));
