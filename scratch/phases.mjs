// Scratch: spawn the command of `npm start` and timestamp every output line; CPU from /proc at exit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
const cwd = process.argv[2] ?? process.cwd();
const extra = process.argv.slice(3);
const t0 = performance.now(); const T0 = performance.timeOrigin + t0; console.log(`T0 ${T0.toFixed(1)}`);
const child = spawn(process.execPath, [...extra, 'bin/openwop-eval-conformance.mjs', 'run', '--certify', 'evidence/reference-host.bundle.json', '--archive', 'evidence/reference-host.archive.har.gz', '--progress', 'lines'], { cwd, env: { ...process.env, PHASE_MARKS: '1' } });
const marks = [];
let mainNs = 0; const mainAt = () => { try { mainNs = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]); } catch {} return (mainNs/1e6).toFixed(0); };
let rows = 0; let firstRow, lastRow;
let cpu = 0;
const pid = child.pid;
const poll = setInterval(() => { mainAt(); try { const s = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); cpu = (Number(s[11]) + Number(s[12])) * 10; } catch {} }, 5);
function lines(stream, tag) {
  let buf = '';
  stream.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); const t = performance.now() - t0;
    if (/^(executed-|inapplicable|blocked)/.test(line) || (/^\[\d+\/85\]/.test(line) && !/^\[(1|85)\//.test(line))) { rows++; firstRow ??= t; lastRow = t; } else marks.push([t, tag + ' cpu ' + mainAt().padStart(4), line.slice(0, 80)]); } });
}
lines(child.stdout, 'out'); lines(child.stderr, 'err');
child.on('exit', (code) => { const t = performance.now() - t0; clearInterval(poll);
  for (const [tt, tag, l] of marks) console.log(tt.toFixed(0).padStart(6), tag, l);
  console.log(`main cpu at exit (last poll) ${(mainNs/1e6).toFixed(0)} first row ${firstRow?.toFixed(0)} last row ${lastRow?.toFixed(0)} rows ${rows} exit ${t.toFixed(0)} code ${code} cpu~${cpu}ms`);
});
