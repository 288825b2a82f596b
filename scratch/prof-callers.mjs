// For samples whose stack holds a frame named `fn`, the first frame below it (toward the root)
// in the project's own code, with the time.
import { readdirSync, readFileSync } from 'node:fs';
const [dir, fn, depthArg] = process.argv.slice(2);
const out = new Map();
for (const name of readdirSync(dir)) {
  if (!name.endsWith('.cpuprofile')) continue;
  const prof = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = (prof.timeDeltas[i + 1] ?? 0) / 1e6;
    let id = prof.samples[i];
    let found = false;
    const chain = [];
    while (id !== undefined) {
      const n = nodes.get(id);
      if (!found && n.callFrame.functionName === fn) found = true;
      else if (found && !n.callFrame.url.includes('node_modules/vite') && n.callFrame.url !== '' ) { chain.push(`${n.callFrame.functionName} ${n.callFrame.url.replace(/^.*\/(lib|hosts|scenarios|commands|test|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`); if (chain.length >= Number(depthArg ?? 3)) break; }
      id = parent.get(id);
    }
    if (!found) continue;
    const k = chain.join(' < ');
    out.set(k, (out.get(k) ?? 0) + dt);
  }
}
for (const [k, v] of [...out].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(v.toFixed(2), k);
