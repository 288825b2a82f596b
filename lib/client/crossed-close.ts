// A request lost to a host's close that crossed it. An HTTP/1.1 host may close a kept-alive
// connection at any time, idle or not, and "a client might have started to send a new request at
// the same time that the server has decided to close the 'idle' connection" (RFC 9112 §9.5): the
// request is then lost though the host did nothing wrong. undici already sends elsewhere a request
// it had not written yet, and checks an idle connection for a close that has arrived before
// writing on it (one turn of the event loop); what is left is a close still on its way when the
// request went out. Such a request is told by three facts, which undici's diagnostics channels
// give (its docs/api/DiagnosticsChannel.md):
// - it went out on a connection that had carried an exchange before (a reused one);
// - the connection ended by the host's doing (closed or reset by the other side);
// - not one byte came back on it after the request was written: no answer was begun.
// The client sends such a request once more, on a connection of its own (./http.ts). Any method:
// the host cannot have begun an answer, and a host that closes a reused connection under a request
// it had taken is, from the client's side, the host that closed it idle (§9.5). A request lost on
// a new connection, lost after a byte of its answer, or lost again, is lost: `transport-loss`,
// the row `blocked`, as before.

import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';

/** The codes of a connection ended by the other side (closed, reset, or a write to a closed one). */
const CLOSED_BY_PEER: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** Exchanges each connection carried so far. */
const exchanges = new WeakMap<Socket, number>();
/** For each request written: its connection, whether it was reused, and the bytes read on it before. */
const written = new WeakMap<object, { socket: Socket; reused: boolean; bytesRead: number }>();
/** The errors of requests lost to a close that crossed them. */
const crossed = new WeakSet<object>();

subscribe('undici:client:sendHeaders', (message) => {
  const { request, socket } = message as { request: object; socket: Socket };
  const before = exchanges.get(socket) ?? 0;
  exchanges.set(socket, before + 1);
  written.set(request, { socket, reused: before > 0, bytesRead: socket.bytesRead });
});

subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: unknown };
  const sent = written.get(request);
  if (sent === undefined || !sent.reused || typeof error !== 'object' || error === null) return;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !CLOSED_BY_PEER.has(code)) return;
  if (sent.socket.bytesRead !== sent.bytesRead) return;
  crossed.add(error);
});

/** Whether `error` is that of a request lost to a close that crossed it (see the top of this file). */
export function crossedByClose(error: unknown): boolean {
  return typeof error === 'object' && error !== null && crossed.has(error);
}

/**
 * The answer of `send` on `pooled`; when the request was lost to a close that crossed it, the
 * answer of `send` on `own()` (a connection of its own) instead, once.
 */
export async function onceMoreIfCrossed<T>(send: (via: Dispatcher) => Promise<T>, pooled: Dispatcher, own: () => Dispatcher): Promise<T> {
  try {
    return await send(pooled);
  } catch (error) {
    if (!crossedByClose(error)) throw error;
    return send(own());
  }
}
