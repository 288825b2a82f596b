// Sums each fork's CPU-profile samples by innermost function over the whole run, and by URL prefix.
import { readdirSync, readFileSync } from 'node:fs';
const [dir, match] = process.argv.slice(2);
const fns = new Map();
let total = 0;
const inclusive = new Map();
for (const name of readdirSync(dir)) {
  if (!name.endsWith('.cpuprofile')) continue;
  const prof = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i + 1] ?? 0) / 1e6;
    const node = nodes.get(prof.samples[i]);
    if (node.callFrame.functionName === '(idle)') continue;
    total += dt;
    const k = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/^.*\/(lib|hosts|scenarios|commands|test|node_modules)\//, '$1/')}`;
    fns.set(k, (fns.get(k) ?? 0) + dt);
    if (match) {
      // inclusive: any frame on the stack whose url matches
      let id = node.id; const seen = new Set();
      while (id !== undefined) { const n = nodes.get(id); const key = `${n.callFrame.functionName} ${n.callFrame.url.replace(/^.*\/(lib|hosts|scenarios|commands|test|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`; if (n.callFrame.url.includes(match) && !seen.has(key)) { seen.add(key); inclusive.set(key, (inclusive.get(key) ?? 0) + dt); } id = parent.get(id); }
    }
  }
}
console.log('total busy', total.toFixed(1));
for (const [k, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(v.toFixed(2), k);
if (match) { console.log('--- inclusive', match); for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(v.toFixed(2), k); }
