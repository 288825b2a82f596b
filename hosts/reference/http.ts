// Small HTTP helpers over node:http: bounded JSON bodies, JSON answers that always carry
// `OpenWOP-Version`, the request target split into projected segments, version negotiation.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, validationError } from './errors.ts';
import { PROTOCOL_VERSION } from './discovery.ts';
import { jsonText } from './frozen.ts';

/** The largest request body the host reads: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many bytes a body is not even drained: the connection is dropped. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;
/** The deepest JSON nesting a body may have (deeper input is refused, never recursed into). */
export const MAX_JSON_DEPTH = 64;
/**
 * How long the whole body may take to arrive once the handler starts reading it. A client whose
 * Content-Length promises more than it sends is answered `408 request_timeout` when it passes,
 * and the connection is closed (RFC 9110 §15.5.9), instead of holding a handler open.
 */
export const BODY_TIMEOUT_MS = 10_000;

/** Per-request body bounds the server sets (ReferenceHostOptions.bodyTimeoutMs). */
const bodyTimeouts = new WeakMap<IncomingMessage, number>();

export function setBodyTimeout(req: IncomingMessage, ms: number): void {
  bodyTimeouts.set(req, ms);
}

export function requestTimeout(ms: number): HttpError {
  return new HttpError(408, 'request_timeout', `the request body did not arrive within ${ms} ms (it is shorter than its Content-Length)`, undefined, {
    Connection: 'close',
  });
}

export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'OpenWOP-Version': PROTOCOL_VERSION,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** Answers `body` as JSON; the text of a frozen body (a summary) is made once. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = jsonText(body) as string;
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: 204 | 304, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, ...headers });
  res.end();
}

/**
 * Reads the body as JSON. An empty body is `undefined`. Over 1 MiB, not JSON, or nested deeper
 * than MAX_JSON_DEPTH: `400 validation_error`. An oversized body is drained (so the client reads
 * the answer) up to a hard bound, past which the connection is dropped.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const timeoutMs = bodyTimeouts.get(req) ?? BODY_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      req.pause();
      reject(requestTimeout(timeoutMs));
    }, timeoutMs);
    req.once('close', () => clearTimeout(timer));
    const fail = (err: Error): void => {
      clearTimeout(timer);
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        fail(validationError(`the request body exceeds ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES }));
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', fail);
    req.on('close', () => {
      if (!req.complete) fail(new Error('the client went away before the body ended'));
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      if (size > MAX_BODY_BYTES) {
        reject(validationError(`the request body exceeds ${MAX_BODY_BYTES} bytes`, { maxBytes: MAX_BODY_BYTES }));
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        resolve(undefined);
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        reject(validationError('the request body is not JSON'));
        return;
      }
      if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        reject(validationError(`the request body nests deeper than ${MAX_JSON_DEPTH} levels`));
        return;
      }
      resolve(value);
    });
  });
}

/** The nesting depth of a parsed JSON value, computed without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

export interface RequestTarget {
  /** Path segments, percent-decoded, still `~HH`-projected. */
  segments: string[];
  query: URLSearchParams;
}

/** Splits the request target. A malformed percent escape is `400 validation_error`. */
export function parseTarget(rawUrl: string): RequestTarget {
  let target = rawUrl;
  // absolute-form (`GET http://host/path`): keep only the path and query.
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (absolute !== null) target = target.slice(absolute[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  const query = new URLSearchParams(q >= 0 ? target.slice(q + 1) : '');
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      throw validationError('the request path has a malformed percent escape');
    }
  }
  return { segments, query };
}

/**
 * Version negotiation: a request naming a major this host does not serve is refused
 * `406 protocol_version_unsupported`, listing what it serves. No header means the preferred one.
 */
export function negotiateVersion(header: string | string[] | undefined): void {
  if (header === undefined) return;
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = /^\s*(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?\s*$/.exec(value);
  const servedMajor = PROTOCOL_VERSION.split('.')[0];
  if (match === null || match[1] !== servedMajor) {
    throw new HttpError(406, 'protocol_version_unsupported', 'this host serves OpenWOP protocol major 2 only', {
      protocolVersions: [PROTOCOL_VERSION],
    });
  }
}
