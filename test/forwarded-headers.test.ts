// The loopback proxies of the tests, the bench, the hostile hosts (their pass-through, and the
// event stream whose terminal event one withholds) and the honest variants forward a request's
// end-to-end headers only: `Connection`, every field it names and `Keep-Alive` belong to the
// client's connection with the proxy, and a proxy removes them (RFC 9110 §7.6.1;
// hosts/honest-variants/wire.ts `endToEnd`). Forwarded, a client's `Connection: close` closed the
// proxy's upstream connection after the answer, and a field the client named hop-by-hop reached
// the host.

import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelayProxy } from '../bench/waiting.ts';
import { startWireProxy } from '../hosts/honest-variants/wire.ts';
import { HOSTILE_BEHAVIOURS, startHostileHost } from '../hosts/hostile/catalogue.ts';
import { forward } from './support/forward.ts';

/** The headers the upstream last received. */
let received: IncomingHttpHeaders = {};
let upstream: Server;
let upstreamUrl = '';

beforeAll(async () => {
  upstream = createServer((req, res) => {
    received = req.headers;
    // An event stream's first frame, which a proxy withholding only the terminal one passes on at once.
    if (req.url?.endsWith('/events')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(': open\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** One GET of `path` through the proxy at `baseUrl`, its connection's own fields set by the client; the headers the upstream saw. */
async function sentThrough(baseUrl: string, path = '/a'): Promise<IncomingHttpHeaders> {
  received = {};
  await new Promise<void>((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { agent: false, headers: { connection: 'keep-alive, x-hop', 'keep-alive': 'timeout=5', 'x-hop': 'for the proxy', 'x-end': 'for the host' } },
      (res) => {
        // The upstream had the request before its answer's head came back: the body is not waited
        // for, which a stream held open (a withheld terminal event) never ends.
        res.destroy();
        resolve();
      },
    );
    req.on('error', reject);
    req.end();
  });
  return received;
}

/** What the upstream must see: the end-to-end field, none of the connection's own. */
function expectEndToEndOnly(headers: IncomingHttpHeaders): void {
  expect(headers['x-end']).toBe('for the host');
  expect(headers['x-hop']).toBeUndefined();
  expect(headers['keep-alive']).toBeUndefined();
  // The proxy's own connection to the upstream may carry a Connection field of its own, never the client's.
  expect(String(headers.connection ?? '')).not.toMatch(/x-hop/);
}

/** What the upstream saw of a GET of `path` through `proxy`, which is closed after. */
async function seenThrough(proxy: { baseUrl: string; close: () => Promise<void> }, path?: string): Promise<IncomingHttpHeaders> {
  try {
    return await sentThrough(proxy.baseUrl, path);
  } finally {
    await proxy.close();
  }
}

describe('a proxy forwards no hop-by-hop field of the client', () => {
  it("the tests' pass-through (test/support/forward.ts)", async () => {
    const proxy = createServer((req, res) => forward(new URL(upstreamUrl), req, res));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      expectEndToEndOnly(await sentThrough(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it("the bench's latency proxy (bench/waiting.ts)", async () => {
    expectEndToEndOnly(await seenThrough(await startDelayProxy(upstreamUrl, 0)));
  });

  it("a hostile host's pass-through of what it does not break (hosts/hostile/catalogue.ts)", async () => {
    expectEndToEndOnly(await seenThrough(await startHostileHost(upstreamUrl, HOSTILE_BEHAVIOURS.find((b) => b.name === 'hang-summary')!, [])));
  });

  it("a hostile host's event stream with its terminal event withheld (hosts/hostile/helpers.ts withheldTerminal)", async () => {
    expectEndToEndOnly(
      await seenThrough(await startHostileHost(upstreamUrl, HOSTILE_BEHAVIOURS.find((b) => b.name === 'keep-alive-no-terminal')!, []), '/runs/run-1/events'),
    );
  });

  it("the honest variants' wire proxy (hosts/honest-variants/wire.ts)", async () => {
    expectEndToEndOnly(await seenThrough(await startWireProxy(upstreamUrl, {})));
  });
});
