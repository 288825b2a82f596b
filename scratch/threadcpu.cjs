// Preloaded (NODE_OPTIONS=--require): at exit, appends the CPU of the process's main thread (the
// command's: /proc/self/task/PID/stat utime+stime) and of the whole process, in ms, to $THREADCPU_OUT.
const { readFileSync, appendFileSync } = require('node:fs');
process.on('exit', () => {
  const tick = 10; // USER_HZ 100
  const fields = (path) => readFileSync(path, 'utf8').replace(/^.*\) /, '').split(' ');
  const main = fields(`/proc/self/task/${process.pid}/stat`);
  const all = fields('/proc/self/stat');
  const ms = (f) => (Number(f[11]) + Number(f[12])) * tick;
  appendFileSync(process.env.THREADCPU_OUT, `${ms(main)} ${ms(all)}\n`);
});
