// Discovery sent before the command's modules load (bench/RESULTS.md "Start-up and npm start").
// `run --base-url URL` asks the host's discovery first, and loading what the harness needs for
// every other request (the client's undici modules, the legs, the reports, the evidence) takes
// longer than node's own start. So bin/openwop-eval-conformance.mjs imports this module alone
// (node:http is part of node; undici is not), sends the exact request the client would send for
// discovery, and then loads the command. The answer waits here, unread, for the client.
//
// The client stays the one door (docs/architecture.md): `takeEarlyExchange` is called by
// lib/client/http.ts alone, for a request it was about to send itself, and it hands the pending
// exchange over only when the method, URL, headers and body are exactly the ones sent here. The
// client then applies its own deadline (counted from when this request was sent), its own body
// cap, its recorder (the archive, the route checks and the served coverage) and its errors, as
// for any exchange. A request it does not match is never used: it is dropped when the command ends
// (`dropEarlyExchange`), and the client sends its own. An early request lost before its answer's
// headers (refused, reset, not HTTP) is not used either: the client then sends its own, so what a
// host's transport does to the first request is judged by the client's own transport alone.

import http from 'node:http';
import { createRequire } from 'node:module';
import type { ExchangeSignal } from './abort.ts';

export const PROTOCOL_VERSION = '2.0';
export const DEFAULT_USER_AGENT = 'openwop-eval-conformance/0.1.0';
export const DISCOVERY_PATH = '/.well-known/openwop';

/**
 * The headers lib/client/http.ts sends with discovery (unauthenticated, lib/client/openwop.ts),
 * in its order: test/early-discovery.test.ts holds the two equal.
 */
export const DISCOVERY_HEADERS: Readonly<Record<string, string>> = {
  'openwop-version': PROTOCOL_VERSION,
  'user-agent': DEFAULT_USER_AGENT,
  accept: 'application/json',
  'accept-encoding': 'identity',
};

/** An answer as the client reads it: the status, the raw headers (a repeated one as an array), the body unread. */
export interface EarlyAnswer {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: http.IncomingMessage;
}

export interface EarlyExchange {
  /** performance.now() when the request was sent. */
  readonly sentAt: number;
  /**
   * The answer once its headers arrived; undefined when the request was lost before them (the
   * client then sends its own). Aborting `signal` destroys the request and rejects with its reason.
   */
  answer(signal: ExchangeSignal): Promise<EarlyAnswer | undefined>;
}

interface Pending {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  sentAt: number;
  request: http.ClientRequest;
  agent: http.Agent;
  /** Settles once: the answer's headers, or undefined when the request was lost before them. */
  settled: Promise<EarlyAnswer | undefined>;
}

let pending: Pending | undefined;

/**
 * Sends discovery to `baseUrl` (an http or https URL, trailing slashes dropped as the client
 * drops them) and keeps the exchange for the client. Does nothing for any other URL.
 */
export function sendEarlyDiscovery(baseUrl: string): void {
  if (pending !== undefined || !/^https?:\/\/[^/\s]+/.test(baseUrl)) return;
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}${DISCOVERY_PATH}`);
  } catch {
    return;
  }
  // The credentials a base URL may carry are never sent: the client refuses such a base URL, or
  // sends them its own way; this request would then match nothing and be dropped unanswered.
  if (url.username !== '' || url.password !== '') return;
  // node:https (and TLS) only for an https host: the plain case loads no more than it needs.
  const transport: typeof http = url.protocol === 'https:' ? createRequire(import.meta.url)('node:https') : http;
  // undici's first lines: the host as the URL names it, and a connection kept alive.
  const wire = { host: url.host, connection: 'keep-alive', ...DISCOVERY_HEADERS };
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 1 });
  const request = transport.request(url, { method: 'GET', headers: wire, agent, setHost: false });
  const sentAt = performance.now();
  const settled = new Promise<EarlyAnswer | undefined>((resolve) => {
    request.once('response', (res) => {
      // Read by the client alone; the socket goes with the body, not back to a pool.
      res.once('close', () => agent.destroy());
      res.on('error', () => {});
      resolve({ statusCode: res.statusCode ?? 0, headers: rawHeaders(res.rawHeaders), body: res });
    });
    // Any error, before the answer or during its body (which the client's read then sees).
    request.on('error', () => {
      agent.destroy();
      resolve(undefined);
    });
  });
  request.end();
  pending = { method: 'GET', url: url.href, headers: DISCOVERY_HEADERS, sentAt, request, agent, settled };
}

/**
 * The early exchange, once, for the client's request of exactly this method, URL, headers and no
 * body; undefined otherwise (the early one then stays to be dropped).
 */
export function takeEarlyExchange(method: string, url: string, headers: Record<string, string>, body: unknown): EarlyExchange | undefined {
  const early = pending;
  if (early === undefined || body !== undefined || method !== early.method || !sameUrl(url, early.url) || !sameHeaders(headers, early.headers))
    return undefined;
  pending = undefined;
  return {
    sentAt: early.sentAt,
    answer: (signal) =>
      new Promise<EarlyAnswer | undefined>((resolve, reject) => {
        // The client's deadline and its caller's signal bound the body too, as undici's signal does.
        let body: http.IncomingMessage | undefined;
        const onAbort = (): void => {
          early.request.destroy();
          body?.destroy(signal.reason as Error);
          early.agent.destroy();
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        early.settled.then((answer) => {
          if (signal.aborted) return;
          if (answer === undefined) signal.removeEventListener('abort', onAbort);
          else {
            body = answer.body;
            body.once('close', () => signal.removeEventListener('abort', onAbort));
          }
          resolve(answer);
        });
      }),
  };
}

/** Ends an early exchange no client took: called when the command ends, so no socket outlives it. */
export function dropEarlyExchange(): void {
  if (pending === undefined) return;
  pending.request.destroy();
  pending.agent.destroy();
  pending.settled.then((answer) => answer?.body.destroy());
  pending = undefined;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === b;
  } catch {
    return false;
  }
}

function sameHeaders(a: Record<string, string>, b: Readonly<Record<string, string>>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name, i) => Object.keys(b)[i] === name && a[name] === b[name]);
}

/** The headers as undici hands them over: lower-case names, a repeated one as an array in order. */
function rawHeaders(raw: string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[name] = [seen, value];
  }
  return out;
}
