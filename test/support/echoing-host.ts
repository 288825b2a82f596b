// A hostile host for the redaction tests: the reference host behind a proxy on 127.0.0.1 that
// quotes back, in every error answer, the Authorization header it received, the request body and
// the query — and answers every `POST /runs` with such a 400. Nothing it sends may reach an
// output of the harness (docs/certifying.md "Certifying your host": no API key is ever written out).

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { startReferenceHost, type ReferenceHost, type ReferenceHostOptions } from '../../hosts/reference/server.ts';
import { upstreamRequest } from './forward.ts';

export interface EchoingHost {
  baseUrl: string;
  upstream: ReferenceHost;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function echoOf(req: IncomingMessage, body: Buffer): string {
  const query = new URL(req.url ?? '/', 'http://127.0.0.1').search;
  return `you sent Authorization: ${req.headers.authorization ?? '(none)'}; body: ${body.toString('utf8')}; query: ${query}`;
}

/** `text` with each letter written as a JSON `\\uXXXX` escape, as a host's own serialiser may. */
const SPELLED = '\u0000spelled\u0000';
const spelled = (text: string): string => text.replace(/[A-Za-z]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function envelope(status: number, message: string, echo: string): string {
  const json = JSON.stringify({ error: status === 404 ? 'not_found' : 'validation_error', message, details: { echo, authorization: echo, spelled: SPELLED } });
  // The echo once more, in a member whose letters are all escaped: the same string to a JSON reader.
  return json.replace(JSON.stringify(SPELLED).slice(1, -1), spelled(JSON.stringify(echo).slice(1, -1)));
}

export async function startEchoingHost(options: ReferenceHostOptions): Promise<EchoingHost> {
  const upstream = await startReferenceHost({ log: () => {}, ...options });
  const target = new URL(upstream.baseUrl);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const echo = echoOf(req, body);
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'POST' && path === '/runs') {
        res.writeHead(400, { 'content-type': 'application/json', 'openwop-version': '2.0', 'x-echo': encodeURIComponent(echo) });
        res.end(envelope(400, `refused: ${echo}`, echo));
        return;
      }
      const forward = upstreamRequest(target, req, (answer) => {
        const status = answer.statusCode ?? 502;
        if (status < 400) {
          res.writeHead(status, answer.headers);
          answer.pipe(res);
          return;
        }
        void readBody(answer).then((upstreamBody) => {
          let message = upstreamBody.toString('utf8');
          try {
            message = String((JSON.parse(message) as { message?: unknown }).message ?? message);
          } catch {
            // not JSON: quoted as it came
          }
          res.writeHead(status, { 'content-type': 'application/json', 'openwop-version': '2.0' });
          res.end(envelope(status, `${message} (${echo})`, echo));
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    upstream,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}
