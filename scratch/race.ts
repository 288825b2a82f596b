// The race alone: a server that destroys a kept-alive connection when the next request arrives on
// it (unread), and undici's error for the request lost that way.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
const req = createRequire(import.meta.url);
const Agent = req('undici/lib/dispatcher/agent.js');
const apiRequest = req('undici/lib/api/api-request.js');
const mode = process.argv[2] ?? 'destroy';
const served = new WeakMap<object, number>();
const server = createServer((rq, rs) => {
  const n = served.get(rq.socket) ?? 0;
  console.log("server: request", rq.url, "on port", rq.socket.remotePort, "served before", n);
  served.set(rq.socket, n + 1);
  if (n > 0) {
    if (mode === 'destroy') rq.socket.destroy();
    else if (mode === 'end') rq.socket.end();
    else if (mode === 'reset') rq.socket.resetAndDestroy();
    else if (mode === 'partial') { rq.socket.write('HTTP/1.1 200 OK\r\nconte'); rq.socket.destroy(); }
    return;
  }
  rs.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' });
  rs.end('ok');
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const agent = new Agent({ keepAliveTimeout: 1000 });
for (const path of ['/a', '/b']) {
  await new Promise((r) => setTimeout(r, 20));
  try {
    const res = await apiRequest.call(agent, { origin, path, method: 'GET' });
    console.log(path, res.statusCode, await res.body.text());
  } catch (e) {
    const err = e as Error & { code?: string; socket?: unknown };
    console.log(path, err.name, err.code, err.message, JSON.stringify(err.socket));
  }
}
await agent.close();
server.close();
