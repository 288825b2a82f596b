// Scratch: the command of `npm start` in tree argv[2], every thread's CPU (schedstat) polled every 3 ms to its exit, summed by thread name.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
const cwd = process.argv[2];
const child = spawn(process.execPath, ['bin/openwop-eval-conformance.mjs', 'run', '--certify', 'evidence/reference-host.bundle.json', '--archive', 'evidence/reference-host.archive.har.gz'], { cwd, stdio: 'ignore' });
const last = new Map();
const poll = () => { try { for (const tid of readdirSync(`/proc/${child.pid}/task`)) { try { const ns = Number(readFileSync(`/proc/${child.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]); const comm = readFileSync(`/proc/${child.pid}/task/${tid}/comm`, 'utf8').trim(); last.set(tid, { comm, ms: ns / 1e6 }); } catch {} } } catch {} };
const timer = setInterval(poll, 3);
child.on('exit', () => { clearInterval(timer); const by = new Map(); for (const { comm, ms } of last.values()) by.set(comm, (by.get(comm) ?? 0) + ms); const per = [...last].map(([tid, v]) => [tid === String(child.pid) ? "main" : tid, v.ms]).sort((a, b) => b[1] - a[1]).map(([t, ms]) => `${t}:${ms.toFixed(0)}`).join(" "); const total = [...by.values()].reduce((a, b) => a + b, 0);
  console.log(`${cwd} load ${readFileSync('/proc/loadavg','utf8').split(' ')[0]} total ${total.toFixed(0)} ` + per); });
