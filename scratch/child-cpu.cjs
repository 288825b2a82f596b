// Required through NODE_OPTIONS in every Node.js process of a run: at exit, writes the process's
// own CPU, argv and the test file whose fork started it (S15_TESTFILE, set by measure-setup.ts and
// inherited or injected into explicit env objects below).
const fs = require('node:fs');
const out = process.env.S15_CHILD_OUT || '/tmp/s15-children.jsonl';
const self = __filename;
process.on('exit', () => {
  const cpu = process.cpuUsage();
  try {
    fs.appendFileSync(out, JSON.stringify({ pid: process.pid, ppid: process.ppid, file: process.env.S15_TESTFILE || null, cpu: (cpu.user + cpu.system) / 1e6, argv: process.argv.slice(0, 6), isWorker: !!process.env.VITEST_POOL_ID }) + '\n');
  } catch {}
});
// Explicit env objects would drop NODE_OPTIONS and the file's name: put them back.
const cp = require('node:child_process');
function fix(options) {
  if (options && typeof options === 'object' && options.env) {
    const env = { ...options.env };
    const req = `--require ${self}`;
    if (!String(env.NODE_OPTIONS || '').includes(self)) env.NODE_OPTIONS = `${env.NODE_OPTIONS || ''} ${req}`.trim();
    if (process.env.S15_TESTFILE && !env.S15_TESTFILE) env.S15_TESTFILE = process.env.S15_TESTFILE;
    if (!env.S15_CHILD_OUT) env.S15_CHILD_OUT = out;
    return { ...options, env };
  }
  return options;
}
for (const name of ['spawn', 'execFile', 'fork', 'spawnSync', 'execFileSync']) {
  const orig = cp[name];
  cp[name] = function (file, args, options, ...rest) {
    if (Array.isArray(args)) return orig.call(this, file, args, fix(options), ...rest);
    return orig.call(this, file, fix(args), options, ...rest);
  };
}
for (const name of ['exec', 'execSync']) {
  const orig = cp[name];
  cp[name] = function (command, options, ...rest) {
    return orig.call(this, command, typeof options === 'function' ? options : fix(options), ...rest);
  };
}
require('node:module').syncBuiltinESMExports();
