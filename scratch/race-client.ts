// The harness's client against servers that close a reused connection under the next request:
// destroy (FIN after reading), a partial answer then destroy, and one that drops every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../lib/client/index.ts';
const mode = process.argv[2] ?? 'destroy';
const served = new WeakMap<object, number>();
let seen = 0;
const server = createServer((rq, rs) => {
  seen++;
  const n = served.get(rq.socket) ?? 0;
  served.set(rq.socket, n + 1);
  if (mode === 'always' || n > 0) {
    if (mode === 'partial') rq.socket.write('HTTP/1.1 200 OK\r\nconte');
    if (mode === 'reset') rq.socket.resetAndDestroy();
    else rq.socket.destroy();
    return;
  }
  const chunks: Buffer[] = [];
  rq.on('data', (b: Buffer) => chunks.push(b));
  rq.on('end', () => {
    rs.writeHead(200, { 'content-type': 'application/json' });
    rs.end(JSON.stringify({ got: Buffer.concat(chunks).toString(), headers: rq.headers }));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const c = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 2000 });
for (const [method, path] of [['GET', '/a'], ['GET', '/b'], ['POST', '/c'], ['PUT', '/d']] as const) {
  await new Promise((r) => setTimeout(r, 20));
  const before = seen;
  try {
    const res = await c.request(method, path, method === 'GET' ? {} : { body: { x: 1 } });
    console.log(mode, method, path, res.status, `host saw ${seen - before}`, res.text);
  } catch (e) {
    console.log(mode, method, path, (e as Error).message, `host saw ${seen - before}`);
  }
}
await c.close();
server.close();
