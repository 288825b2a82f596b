// Socket-level proxies for round honest8 (scratch only):
// - http10: rewrites each response's status line to HTTP/1.0 (a Python http.server host); the
//   upstream must end every body by the close (the bytes proxy's closeDelimited);
// - idleClose: closes a kept-alive connection after `idleMs` without a request, and sends no
//   Keep-Alive hint (gunicorn's keepalive 2 s, Go's IdleTimeout), so a client may race the close.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

export interface NetChoice {
  http10?: boolean;
  /** Close a connection idle (no bytes from the client) this long after the last response bytes. */
  idleMs?: number;
  /** Every status line's reason phrase left empty (`HTTP/1.1 201 `). */
  emptyReason?: boolean;
}

export async function startNetProxy(upstream: string, choice: NetChoice): Promise<{ baseUrl: string; count: { n: number }; close(): Promise<void> }> {
  const target = new URL(upstream);
  const count = { n: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    const up = connect(Number(target.port), target.hostname);
    sockets.add(up);
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      if (choice.idleMs === undefined) return;
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => {
        count.n++;
        client.destroy();
        up.destroy();
      }, choice.idleMs);
    };
    let head = true;
    let sse = false;
    client.on('data', (b) => {
      if (idle) clearTimeout(idle);
      idle = undefined;
      up.write(b);
    });
    up.on('data', (b: Buffer) => {
      let out = b;
      if (choice.http10 && head) {
        const text = b.toString('latin1');
        if (text.startsWith('HTTP/1.1 ')) {
          out = Buffer.from(`HTTP/1.0 ${text.slice(9)}`, 'latin1');
          count.n++;
        }
        head = false;
      }
      if (/content-type: text\/event-stream/i.test(out.toString('latin1'))) sse = true;
      if (choice.emptyReason) {
        const text = out.toString('latin1');
        const next = text.replace(/^(HTTP\/1\.[01] \d{3}) [^\r\n]*\r\n/, '$1 \r\n');
        if (next !== text) {
          count.n++;
          out = Buffer.from(next, 'latin1');
        }
      }
      // Strip the Keep-Alive hint a Node server adds.
      if (choice.idleMs !== undefined) {
        const text = out.toString('latin1');
        if (/\r\nKeep-Alive: timeout=\d+\r\n/i.test(text)) out = Buffer.from(text.replace(/\r\nKeep-Alive: timeout=\d+\r\n/i, '\r\n'), 'latin1');
      }
      client.write(out);
      if (!sse) arm();
    });
    up.on('end', () => client.end());
    client.on('end', () => up.end());
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
    client.on('close', () => {
      sockets.delete(client);
      if (idle) clearTimeout(idle);
      up.destroy();
    });
    up.on('close', () => sockets.delete(up));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
