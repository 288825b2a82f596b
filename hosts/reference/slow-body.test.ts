// A request whose Content-Length promises more than it sends is answered `408 request_timeout`
// in the flat envelope within a bounded time, with `Connection: close` (hosts/reference/http.ts
// BODY_TIMEOUT_MS; RFC 9110 §15.5.9). Driven over a raw socket, since no HTTP client sends a short
// body on purpose.

import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/schemas/index.ts';
import type { ReferenceHost } from './server.ts';
import { hostForSuite } from '../../test/support/reference-client.ts';

/** Generous: the host is configured to give up after 200 ms; this only stops a hang. */
const ANSWER_BOUND_MS = 20_000;

/** Writes `head` and `body`, then waits (bounded) until the host closes the connection. */
function shortBody(
  host: ReferenceHost,
  method: string,
  path: string,
  declared: number,
  body: string,
  extraHeaders = '',
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(host.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, ANSWER_BOUND_MS);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extraHeaders}Authorization: Bearer ${host.tenants.a.apiKey}\r\nOpenWOP-Version: 2.0\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${body}`,
    );
  });
}

describe('a body shorter than its Content-Length', () => {
  let host: ReferenceHost;
  hostForSuite({ bodyTimeoutMs: 200 }, (started) => (host = started));

  for (const [method, path] of [
    ['POST', '/runs'],
    ['PUT', '/conformance/seams/eval-suites/conformance-eval-trajectory'],
  ] as const) {
    it(`is answered 408 request_timeout and the connection closed (${method} ${path})`, { timeout: 30_000 }, async () => {
      const { text, closed } = await shortBody(host, method, path, 100, '{"mode":');
      expect(closed, `no close within ${ANSWER_BOUND_MS} ms; read so far: ${text}`).toBe(true);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      const envelope = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown;
      expect(validate('error-envelope', envelope)).toEqual({ ok: true });
      expect(envelope).toMatchObject({ error: 'request_timeout' });
      expect(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()).toMatch(/\r\nconnection: close/);
    });
  }

  it('leaves a complete body alone', { timeout: 30_000 }, async () => {
    const body = '{"mode":"eval"}';
    const { text } = await shortBody(host, 'POST', '/runs', Buffer.byteLength(body), body, 'Connection: close\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).not.toContain('request_timeout');
  });
});
