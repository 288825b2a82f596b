// Discovery sent before the command's modules load (lib/client/early-discovery.ts): the client
// takes the early exchange only for exactly its own discovery request, reads it under its own
// deadline (counted from when it was sent), cap and recorder, and sends its own request when the
// early one does not match or was lost before its answer. And `run --base-url` puts one discovery
// request on the wire, not two.

import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { discover, ResponseTooLarge, TransportError } from '../lib/client/index.ts';
import { createClient } from '../lib/client/http.ts';
import type { ExchangeRecorder, SentRequest } from '../lib/client/recorder.ts';
import { DISCOVERY_HEADERS, dropEarlyExchange, sendEarlyDiscovery } from '../lib/client/early-discovery.ts';
import { baseUrl, client, fake, HANG_MS, json, rejection, seen, useFakeHost } from './support/fake-host.ts';

useFakeHost();
afterEach(() => dropEarlyExchange());

const DOCUMENT = { protocolVersions: ['2.0'], implementation: { name: 'fake', version: '1' } };

describe('the early discovery exchange', () => {
  it('carries exactly the headers, in order, that the client sends with discovery', async () => {
    const sent: SentRequest[] = [];
    fake.handler = (_req, res) => json(res, 200, DOCUMENT);
    const c = createClient({ baseUrl, apiKey: 'k', recorder: recordingInto(sent) });
    try {
      await discover(c);
    } finally {
      await c.close();
    }
    expect(sent).toHaveLength(1);
    expect(Object.entries(sent[0]!.headers)).toEqual(Object.entries(DISCOVERY_HEADERS));
    // And the early request's wire headers are those the client's transport puts there.
    sendEarlyDiscovery(baseUrl);
    await waitFor(() => seen.length === 2);
    const names = (entry: (typeof seen)[number]) => entry.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names(seen[1]!)).toEqual(names(seen[0]!));
    expect(seen[1]!.headers).toEqual(seen[0]!.headers);
  });

  it('is taken by the client: one request on the wire, recorded with the time it was sent', async () => {
    fake.handler = (_req, res) => json(res, 200, DOCUMENT, { 'x-twice': 'a' });
    const before = performance.now();
    sendEarlyDiscovery(baseUrl);
    await waitFor(() => seen.length === 1);
    const sent: SentRequest[] = [];
    const c = createClient({ baseUrl, apiKey: 'k', recorder: recordingInto(sent) });
    try {
      const found = await discover(c);
      expect(found.ok).toBe(true);
    } finally {
      await c.close();
    }
    expect(seen).toHaveLength(1);
    expect(sent[0]!.sentAt).toBeGreaterThanOrEqual(before);
    expect(sent[0]!.sentAt).toBeLessThan(performance.now());
  });

  it('is not taken by a request it does not match, which goes out itself', async () => {
    fake.handler = (_req, res) => json(res, 200, DOCUMENT);
    sendEarlyDiscovery(baseUrl);
    const c = client();
    // Another path, then discovery with another header: neither is the early request.
    await c.request('GET', '/.well-known/openwop/', { auth: 'none' });
    await c.request('GET', '/.well-known/openwop', { auth: 'none', headers: { 'x-other': '1' } });
    expect(seen.filter((s) => s.url === '/.well-known/openwop')).toHaveLength(2);
    // The early one is still there for the exact request, which then makes no new one.
    const count = seen.length;
    expect((await c.request('GET', '/.well-known/openwop', { auth: 'none' })).status).toBe(200);
    expect(seen).toHaveLength(count);
  });

  it('lost before its answer, the client sends its own request', async () => {
    let first = true;
    fake.handler = (req, res) => {
      if (first) {
        first = false;
        req.socket.destroy();
        return;
      }
      json(res, 200, DOCUMENT);
    };
    sendEarlyDiscovery(baseUrl);
    await waitFor(() => seen.length === 1);
    const found = await discover(client());
    expect(found.ok).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it("is read under the client's deadline, counted from when it was sent", async () => {
    fake.handler = () => {}; // never answers
    sendEarlyDiscovery(baseUrl);
    await waitFor(() => seen.length === 1);
    const started = performance.now();
    const error = await rejection(discover(client({ timeoutMs: 400 })));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/no complete response within 400 ms/);
    expect(performance.now() - started).toBeLessThan(HANG_MS);
    expect(seen).toHaveLength(1);
  });

  it("is read under the client's body cap", async () => {
    fake.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...DOCUMENT, pad: 'x'.repeat(4096) }));
    };
    sendEarlyDiscovery(baseUrl);
    const error = await rejection(discover(client({ maxResponseBytes: 1024 })));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(seen).toHaveLength(1);
  });
});

describe('run --base-url', () => {
  it('puts one discovery request on the wire, and the run reads its answer', async () => {
    const arrived: IncomingMessage['url'][] = [];
    const server = createServer((req, res) => {
      arrived.push(req.url);
      req.resume();
      // No discovery: the run stops once it has read this answer (exit 2), naming it.
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found","message":"none here"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bin = fileURLToPath(new URL('../bin/openwop-eval-conformance.mjs', import.meta.url));
      const child = spawn(process.execPath, [bin, 'run', '--base-url', url, '--api-key', 'k-a'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(2);
      expect(stderr).toMatch(/openwop answered 404 not_found/);
      expect(arrived).toEqual(['/.well-known/openwop']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});

/** A recorder that keeps each request as sent, and nothing of its answer. */
function recordingInto(sent: SentRequest[]): ExchangeRecorder {
  return {
    begin(request) {
      sent.push(request);
      return { headers() {}, chunk() {}, end() {}, fail() {} };
    },
  };
}

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = performance.now() + HANG_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('Test bug: the fake host never saw the request');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
