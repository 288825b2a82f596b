// Probe (scratch only): counts the stacks formatted in a Node.js process, by error message, with when.
const t0 = Date.now();
const counts = new Map();
Error.prepareStackTrace = (e, s) => {
  const key = `${e && e.constructor && e.constructor.name}:${String(e && e.message).slice(0, 50)}`;
  const c = counts.get(key) ?? { n: 0, first: Infinity, last: 0 };
  c.n++;
  const t = Date.now() - t0;
  c.first = Math.min(c.first, t);
  c.last = Math.max(c.last, t);
  counts.set(key, c);
  return `${e}\n${s.map((x) => `    at ${x}`).join('\n')}`;
};
process.on('exit', () => {
  const rows = [...counts].sort((a, b) => b[1].n - a[1].n).slice(0, 15).map(([k, c]) => `${c.n}\t${c.first}-${c.last}ms\t${k}`);
  require('node:fs').appendFileSync(process.env.STACK_OUT || '/tmp/stack-count.txt', `=== pid ${process.pid} exit at ${Date.now() - t0} ms\n${rows.join('\n')}\n`);
});
