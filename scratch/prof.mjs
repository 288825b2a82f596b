// Charges each fork's CPU-profile samples to the test file running in it then (measure-setup.ts's
// windows), and within a file to a category by the innermost frame's URL.
import { readdirSync, readFileSync } from 'node:fs';
const [dir, filesPath, ...want] = process.argv.slice(2);
const windows = readFileSync(filesPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const rel = (f) => f.replace(/^.*?\/(test|scenarios|hosts)\//, '$1/');
const perFile = new Map();
function cat(url, fn) {
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(idle)') return 'idle';
  if (fn === '(program)') return 'program';
  if (!url) return 'native/builtin';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const m = url.match(/\/(lib|hosts|scenarios|commands|test)\/([^/]+)/);
  if (url.includes('node_modules')) return 'nm:' + url.split('node_modules/')[1].split('/')[0];
  if (m) return m[1] + '/' + m[2];
  return 'other';
}
for (const name of readdirSync(dir)) {
  if (!name.endsWith('.001.cpuprofile')) continue;
  const pid = Number(name.split('.')[3]);
  const prof = JSON.parse(readFileSync(`${dir}/${name}`, 'utf8'));
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const mine = windows.filter((w) => w.pid === pid).sort((a, b) => a.mono0 - b.mono0);
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += prof.timeDeltas[i];
    const dt = (prof.timeDeltas[i + 1] ?? 0) / 1e6;
    const node = nodes.get(prof.samples[i]);
    const w = mine.find((x) => t >= x.mono0 && t <= x.mono1);
    const file = w ? rel(w.file) : '(between files)';
    const c = cat(node.callFrame.url, node.callFrame.functionName);
    const e = perFile.get(file) ?? { total: 0, cats: new Map(), fns: new Map() };
    if (c !== 'idle') e.total += dt;
    e.cats.set(c, (e.cats.get(c) ?? 0) + dt);
    const fk = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.replace(/^.*\/(lib|hosts|scenarios|commands|test|node_modules)\//, '$1/')}:${node.callFrame.lineNumber}`;
    e.fns.set(fk, (e.fns.get(fk) ?? 0) + dt);
    perFile.set(file, e);
  }
}
const rows = [...perFile].sort((a, b) => b[1].total - a[1].total);
for (const [file, e] of rows.slice(0, Number(process.env.TOP ?? 25))) {
  if (want.length && !want.includes(file)) continue;
  const cats = [...e.cats].filter(([c]) => c !== 'idle').sort((a, b) => b[1] - a[1]).slice(0, 8).map(([c, v]) => `${c} ${v.toFixed(2)}`).join(', ');
  console.log(`${file}: busy ${e.total.toFixed(2)} s, idle ${(e.cats.get('idle') ?? 0).toFixed(1)}; ${cats}`);
  if (want.length) for (const [f, v] of [...e.fns].filter(([f]) => !f.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${v.toFixed(2)} ${f}`);
}
