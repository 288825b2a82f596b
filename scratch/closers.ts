// HTTP-level proxies (scratch only) in front of the reference host, each closing kept-alive
// connections in one way RFC 9112 §9.5 allows ("a client, server, or proxy MAY close the transport
// connection at any time"):
// - idleMs: Node's own `server.keepAliveTimeout` (the idle close timer), hint kept or stripped;
// - afterAnswer: the socket closed right after each answer is written, no `Connection: close`;
// - onReuse: a request arriving on a connection that already served one closes it unanswered
//   (the idle timer firing as the request arrives: RFC 9112 §9.5's own example).
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface CloseChoice {
  idleMs?: number;
  afterAnswer?: 'end' | 'destroy';
  onReuse?: boolean;
  /** The Keep-Alive hint: 'none' (stripped: `Connection: keep-alive` set explicitly), or a timeout in seconds sent as is. */
  hint?: 'none' | number;
}

export async function startCloser(upstream: string, choice: CloseChoice): Promise<{ baseUrl: string; count: { n: number; reqs: number; methods: Record<string, number>; firstReuse?: string }; close(): Promise<void> }> {
  const target = new URL(upstream);
  const count = { n: 0, reqs: 0, methods: {} as Record<string, number>, firstReuse: undefined as string | undefined };
  const served = new WeakMap<Socket, number>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    count.reqs++;
    const kind = `${req.method} ${(req.url ?? '').replace(/\?.*/, '').replace(/\/runs\/[^/]+/, '/runs/*').replace(/eval-suites\/.*/, 'eval-suites/*').replace(/seams\/runs\/[^/]+/, 'seams/runs/*')}`;
    count.methods[kind] = (count.methods[kind] ?? 0) + 1;
    const socket = req.socket;
    const before = served.get(socket) ?? 0;
    served.set(socket, before + 1);
    if (before > 0 && count.firstReuse === undefined) count.firstReuse = `${req.method} ${req.url} (request ${count.reqs})`;
    if (choice.onReuse && before > 0) {
      count.n++;
      socket.destroy();
      return;
    }
    const forwarded = { ...req.headers };
    if (process.env.STRIP === '1') delete forwarded.connection;
    const onward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: forwarded }, (answer) => {
      const headers = { ...answer.headers };
      delete headers.connection;
      delete headers['keep-alive'];
      if (choice.hint === 'none') headers.connection = 'keep-alive';
      else if (typeof choice.hint === 'number') {
        headers.connection = 'keep-alive';
        headers['keep-alive'] = `timeout=${choice.hint}`;
      }
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    onward.on('error', () => res.destroy());
    if (choice.afterAnswer !== undefined) {
      res.on('finish', () => {
        count.n++;
        if (choice.afterAnswer === 'end') socket.end();
        else socket.destroy();
      });
    }
    req.pipe(onward);
  };
  const server = createServer(handle);
  if (choice.idleMs !== undefined) server.keepAliveTimeout = choice.idleMs;
  server.on('connection', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
