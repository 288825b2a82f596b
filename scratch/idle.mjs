// Scratch: spawn the command of `npm start`, sample every thread's schedstat every 2 ms, and list the
// stretches where the whole process ran less than 20 % of one core (waits), with the task names.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
const cwd = process.argv[2] ?? process.cwd();
const child = spawn(process.execPath, ['bin/openwop-eval-conformance.mjs', 'run', '--certify', '/tmp/s4i.json', '--archive', '/tmp/s4i.har.gz', '--progress', 'lines'], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
const t0 = performance.now();
const pid = child.pid;
const samples = [];
const names = new Map();
const sample = () => {
  const t = performance.now() - t0;
  let total = 0; const per = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        if (!names.has(tid)) names.set(tid, readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());
        per[tid] = ns; total += ns;
      } catch {}
    }
  } catch { return; }
  samples.push({ t, total, per });
};
const timer = setInterval(sample, 2);
let lastLeg = 0, firstLeg = 0;
child.stderr.on('data', (d) => { const s = String(d); if (s.includes('[1/85]')) firstLeg = performance.now() - t0; if (s.includes('[85/85]')) lastLeg = performance.now() - t0; });
child.on('exit', () => {
  clearInterval(timer);
  const end = performance.now() - t0;
  // waits: windows of >= 6 ms where the whole process ran < 20 % of a core
  let waits = [], start = null, cpuIn = 0;
  for (let i = 1; i < samples.length; i++) {
    const dt = samples[i].t - samples[i - 1].t; const dc = (samples[i].total - samples[i - 1].total) / 1e6;
    if (dc < 0.2 * dt) { if (start === null) { start = samples[i - 1].t; cpuIn = 0; } cpuIn += dc; }
    else if (start !== null) { const len = samples[i - 1].t - start; if (len >= 6) waits.push([start, len, cpuIn]); start = null; }
  }
  const sum = waits.reduce((a, w) => a + w[1], 0);
  console.log(`exit ${end.toFixed(0)} first leg ${firstLeg.toFixed(0)} last leg ${lastLeg.toFixed(0)}; waits >= 6 ms at < 20 % of a core: ${waits.length}, ${sum.toFixed(0)} ms`);
  for (const [s, l, c] of waits) console.log(`  at ${s.toFixed(0)} for ${l.toFixed(0)} ms (cpu ${c.toFixed(1)} ms)`);
  const last = { per: {} };
  for (const x of samples) for (const [tid, ns] of Object.entries(x.per)) last.per[tid] = Math.max(last.per[tid] ?? 0, ns);
  const byName = {};
  for (const [tid, ns] of Object.entries(last.per)) if (ns > 5e6) byName[tid === String(pid) ? 'main' : tid] = ns / 1e6;
  console.log(Object.entries(byName).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
});
