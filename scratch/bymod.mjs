import fs from 'node:fs';
const bundle = fs.readFileSync(process.argv[2], 'utf8').split('\n');
const marks = []; bundle.forEach((l, i) => { const m = /^\/\/ (\S+\.(?:js|cjs|mjs|json))$/.exec(l); if (m) marks.push([i, m[1]]); });
const modOf = (line) => { let lo = 0, hi = marks.length - 1, r = '?'; while (lo <= hi) { const mid = (lo + hi) >> 1; if (marks[mid][0] <= line) { r = marks[mid][1]; lo = mid + 1; } else hi = mid - 1; } return r; };
const files = process.argv.slice(4); const by = new Map(); const n = files.length; const depth = +process.argv[3];
for (const f of files) { const p = JSON.parse(fs.readFileSync(f, 'utf8')); const byId = new Map(p.nodes.map(x => [x.id, x]));
  for (let i = 0; i < p.samples.length; i++) { const cf = byId.get(p.samples[i]).callFrame; const t = p.timeDeltas[i] ?? 0;
    let k; if (cf.url.endsWith('command.cjs')) { k = modOf(cf.lineNumber).replace(/^.*node_modules\//, 'nm/').split('/').slice(0, depth).join('/'); } else k = cf.url ? (cf.url.startsWith('node:') ? 'node:*' : cf.url) : cf.functionName;
    by.set(k, (by.get(k) ?? 0) + t); } }
console.log([...by].sort((a,b)=>b[1]-a[1]).slice(0, 30).map(([k,v])=>`${(v/1000/n).toFixed(1)}\t${k}`).join('\n'));
