// Self-tests of lib/client's HTTP layer against the fake host (test/support/fake-host.ts): the
// request it sends, the answers it reads and refuses, its bounds; and the ~HH id projection.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectId, ResponseTooLarge, TransportError, unprojectId } from '../lib/client/index.ts';
import { toTransportError } from '../lib/client/transport-errors.ts';
import { binaryString } from './support/arbitraries.ts';
import { API_KEY, baseUrl, CANARY, client, countHeader, every, fake, json, only, rejection, seen, useFakeHost } from './support/fake-host.ts';

useFakeHost();

describe('http client', () => {
  // 429 is asked again (test/client-retry.test.ts); a 503 without Retry-After is an answer.
  it('every HTTP status but 429 resolves as a result and none throws', async () => {
    const statuses = [200, 201, 204, 301, 400, 401, 404, 409, 422, 500, 501, 503];
    fake.handler = (req, res) => {
      const status = Number(req.url?.slice(1));
      if (status === 204) {
        res.writeHead(204).end();
        return;
      }
      json(res, status, { error: 'x', message: `status ${status}` });
    };
    const c = client();
    for (const status of statuses) {
      const result = await c.request('GET', `/${status}`);
      expect(result.status).toBe(status);
      if (status === 204) expect(result.json).toBeUndefined();
      else expect(result.json).toEqual({ error: 'x', message: `status ${status}` });
    }
  });

  it('OpenWOP-Version and the default bearer key go out exactly once', async () => {
    fake.handler = (_req, res) => json(res, 200, {});
    await client().request('POST', '/runs', { body: { a: 1 }, headers: { 'X-Extra': 'yes' } });
    const entry = only(seen);
    expect(entry.headers['openwop-version']).toBe('2.0');
    expect(entry.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(countHeader(entry, 'openwop-version')).toBe(1);
    expect(countHeader(entry, 'authorization')).toBe(1);
    expect(entry.headers['content-type']).toBe('application/json');
    expect(JSON.parse(entry.body)).toEqual({ a: 1 });
  });

  it("a caller's Authorization header is sent unchanged and alone", async () => {
    fake.handler = (_req, res) => json(res, 200, {});
    await client().request('GET', '/runs/x', { headers: { authorization: 'Bearer other-tenant-key' } });
    const entry = only(seen);
    expect(entry.headers.authorization).toBe('Bearer other-tenant-key');
    expect(countHeader(entry, 'authorization')).toBe(1);
  });

  it("auth 'none' omits Authorization, {apiKey} replaces the key, and a null header is suppressed", async () => {
    fake.handler = (_req, res) => json(res, 200, {});
    const c = client();
    await c.request('GET', '/a', { auth: 'none' });
    await c.request('GET', '/b', { auth: { apiKey: 'tenant-b-key' } });
    await c.request('GET', '/c', { headers: { 'OpenWOP-Version': null } });
    expect(seen.map((e) => e.headers.authorization)).toEqual([undefined, 'Bearer tenant-b-key', `Bearer ${API_KEY}`]);
    expect(seen[2]?.headers['openwop-version']).toBeUndefined();
  });

  it('a trailing slash on baseUrl is stripped and the query is encoded', async () => {
    fake.handler = (_req, res) => json(res, 200, {});
    await client({ base: `${baseUrl}///` }).request('GET', '/runs', { query: { a: 'x y', skip: undefined, n: 3 } });
    expect(only(seen).url).toBe('/runs?a=x+y&n=3');
  });

  it('a timeout reads the same whichever timer ends it: the request bound, or the dispatcher inside it', () => {
    // Which one fires first depends on the load; the row's detail, signed and replayed, must not.
    const what = 'GET /runs/x/eval-summary';
    const expired = AbortSignal.abort(new Error('timed out'));
    const byBound = toTransportError(new Error('This operation was aborted'), what, [], { timeout: expired, bound: 1000 }) as TransportError;
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']) {
      const byPhase = toTransportError(Object.assign(new Error('Headers Timeout Error'), { code }), what, [], { bound: 1000 }) as TransportError;
      expect([byPhase.message, byPhase.code], code).toEqual([byBound.message, byBound.code]);
    }
    expect(byBound.message).toBe(`transport-loss: ${what}: no complete response within 1000 ms`);
    // A stream's idle timeout, read after its headers with no request bound, keeps its own words.
    const idle = toTransportError(Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' }), what, [], {}) as TransportError;
    expect(idle.code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  // The handler never answers, so only the client's 300 ms bound can end the request: the message
  // naming that bound is the deterministic check; the test timeout only guards against a hang.
  it('a response that never arrives is a TransportError within the bound, with no API key in its text', { timeout: 15_000 }, async () => {
    fake.handler = () => {
      // Never answers.
    };
    const c = client({ apiKey: CANARY, timeoutMs: 300 });
    // The key sits in the path and in a per-request key too, so an unscrubbed message would show it.
    const error = await rejection(c.request('GET', `/echo/${CANARY}`, { auth: { apiKey: `${CANARY}-b` } }));
    expect(error).toBeInstanceOf(TransportError);
    const e = error as TransportError;
    expect(e.message.startsWith('transport-loss: ')).toBe(true);
    expect(e.message).toContain('no complete response within 300 ms');
    expect(e.code).toBe('TIMEOUT');
    for (const text of [e.message, String(e.stack), String(e), JSON.stringify(e)]) {
      expect(text).not.toContain(CANARY);
      expect(text).not.toContain('CANARY');
    }
  });

  it('a connection reset in the middle of a body is a TransportError', async () => {
    fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":', () => res.socket?.destroy());
    };
    const error = await rejection(client().request('GET', '/runs/x'));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/^transport-loss: GET \/runs\/x/);
  });

  it('a refused connection is a TransportError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await rejection(client({ base: `http://127.0.0.1:${port}` }).request('GET', '/'));
    expect(error).toBeInstanceOf(TransportError);
  });

  it('an idle connection is let go before a host without a Keep-Alive hint closes it (gunicorn: 2 s), so no request crosses the close', async () => {
    // The host closes a connection idle for IDLE_CLOSE_MS; over a network its close can cross a
    // request already on the way (RFC 9112 §9.3.1, §9.5), which this host plays by dropping a
    // request that arrives on a connection idle that long. The client must not send one there.
    const IDLE_CLOSE_MS = 1_200;
    const idleSince = new WeakMap<object, number>();
    let dropped = 0;
    const host = createServer((req, res) => {
      const since = idleSince.get(req.socket);
      if (since !== undefined && Date.now() - since >= IDLE_CLOSE_MS) {
        dropped++;
        req.socket.destroy();
        return;
      }
      res.on('finish', () => idleSince.set(req.socket, Date.now()));
      json(res, 200, { ok: true });
    });
    host.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const c = client({ base: `http://127.0.0.1:${(host.address() as AddressInfo).port}` });
      expect((await c.request('GET', '/a')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, IDLE_CLOSE_MS + 100));
      expect((await c.request('GET', '/b')).status).toBe(200);
      // Not one crossed the close (which the client would have sent once more, test/client-retry.test.ts).
      expect(dropped).toBe(0);
    } finally {
      host.closeAllConnections();
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });

  it('a streamed body above the cap is refused as ResponseTooLarge', async () => {
    fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(1024);
      let sent = 0;
      every(1, () => {
        if (sent++ < 64 && !res.destroyed) res.write(chunk);
        else res.end();
      });
    };
    const error = await rejection(client({ maxResponseBytes: 4096 }).request('GET', '/big'));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as ResponseTooLarge).limitBytes).toBe(4096);
  });

  it('a gzip body is handed over as sent, never expanded: a bomb is its compressed bytes and not JSON', async () => {
    const member = gzipSync(Buffer.alloc(1024 * 1024));
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member)); // 64 MiB expanded
    fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    };
    const result = await client({ maxResponseBytes: 1024 * 1024 }).request('GET', '/bomb');
    expect(result.status).toBe(200);
    expect(result.json).toBeUndefined();
    expect(Buffer.byteLength(result.text)).toBeLessThan(4 * bomb.length);
  });

  it('a declared Content-Length above the cap is refused before the body is read', async () => {
    fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    };
    const error = await rejection(client().request('GET', '/big'));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as Error).message).toContain('declares 10485760 bytes');
  });
});

describe('~HH id projection', () => {
  it('projects every byte outside [A-Za-z0-9._-] as ~ and two upper-case hex digits', () => {
    expect(projectId('tenant-a/abcdefghijklmnop01')).toBe('tenant-a~2Fabcdefghijklmnop01');
    expect(projectId('anon:t/x~y')).toBe('anon~3At~2Fx~7Ey');
    expect(projectId('é')).toBe('~C3~A9');
    expect(projectId('A.b_c-9')).toBe('A.b_c-9');
  });

  it('unprojection refuses a bare ~, a non-hex pair and a character the projection never leaves bare', () => {
    expect(unprojectId('abc~2').ok).toBe(false);
    expect(unprojectId('abc~zz').ok).toBe(false);
    expect(unprojectId('a/b').ok).toBe(false);
    expect(unprojectId('~FF').ok).toBe(false);
    expect(unprojectId('t~2fx')).toEqual({ ok: true, id: 't/x' });
  });

  it('projection round-trips every well-formed string and leaves only the projected alphabet', () => {
    fc.assert(
      fc.property(binaryString({ maxLength: 64 }), (id) => {
        const projected = projectId(id);
        expect(projected).toMatch(/^(?:[A-Za-z0-9._-]|~[0-9A-F]{2})*$/);
        expect(unprojectId(projected)).toEqual({ ok: true, id });
      }),
      { numRuns: 500 },
    );
  });
});
