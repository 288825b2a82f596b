// node heapincl.mjs REGEX : sampled allocation (MB) under each frame whose name:line matches REGEX (inclusive)
import fs from 'node:fs';
const re = new RegExp(process.argv[2]);
const p = JSON.parse(fs.readFileSync('/tmp/prof/heap.json', 'utf8'));
const sizeById = new Map(); for (const s of p.samples) sizeById.set(s.nodeId, (sizeById.get(s.nodeId) ?? 0) + s.size);
const by = new Map();
(function walk(n, seen) { const cf = n.callFrame; const k = `${cf.functionName || '(anon)'}:${cf.lineNumber}`;
  const s2 = re.test(k) && !seen.has(k) ? new Set([...seen, k]) : seen;
  const sz = sizeById.get(n.id) ?? 0; for (const x of s2) by.set(x, (by.get(x) ?? 0) + sz);
  for (const c of n.children) walk(c, s2); })(p.head, new Set());
console.log([...by].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${(v / 1e6).toFixed(2)}\t${k}`).join('\n'));
