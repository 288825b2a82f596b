// Every exchange of a certification, matched to its route and checked as it ends: the recorder
// every client of the target reports to (beside the archive's, when one is written). Each answer
// is checked once, when it is whole (./answer.ts), and only the outcome is kept, so the log holds
// no bodies; the findings are charged after the legs have run (./check.ts), in an order that does
// not depend on when the legs ran.

import type { ExchangeRecord, ExchangeRecorder, SentRequest, StreamEnd } from '../client/recorder.ts';
import { checkAnswer, type StatusSeen } from './answer.ts';
import { ROUTES, type Route } from './table.ts';

/** Bytes of a refused stream's body kept to check its error envelope. */
const STREAM_ERROR_BYTES = 64 * 1024;

/** What became of one exchange. */
export interface CheckedExchange {
  /** `METHOD /path` as sent, the query left out (ids included: they name the exchange). */
  name: string;
  route?: Route;
  status?: number;
  /** The answer never came whole (a transport loss): not the host's failure here. */
  unanswered?: boolean;
  /** The body was read and checked, not only the status. */
  bodyChecked: boolean;
  problems: string[];
  seen?: StatusSeen;
  /** performance.now() when the request went out and when its answer was whole. */
  begunAt: number;
  endedAt?: number;
}

/** The route a request names: method, the path's segments after the base path, and its headers. */
export function matchRoute(method: string, segments: readonly string[], headers: Record<string, string>, routes: readonly Route[] = ROUTES): Route | undefined {
  const fits = routes.filter((route) => {
    const parts = route.template.split('/').filter(Boolean);
    return route.method === method && parts.length === segments.length && parts.every((part, i) => part.startsWith('{') || part === segments[i]);
  });
  // A route told apart by a request header wins when the request carries it.
  return (
    fits.find((route) => route.requestHeader !== undefined && headers[route.requestHeader] !== undefined) ??
    fits.find((route) => route.requestHeader === undefined)
  );
}

export class ExchangeLog implements ExchangeRecorder {
  readonly #basePath: string[];
  readonly #routes: readonly Route[];
  readonly exchanges: CheckedExchange[] = [];

  /** `baseUrl` is the host's; a path prefix it carries is not part of any route. */
  constructor(baseUrl: string, routes: readonly Route[] = ROUTES) {
    this.#basePath = segmentsOf(safePath(baseUrl));
    this.#routes = routes;
  }

  begin(request: SentRequest): ExchangeRecord {
    const url = request.url;
    const all = segmentsOf(safePath(url));
    const prefixed = this.#basePath.every((part, i) => all[i] === part);
    const segments = prefixed ? all.slice(this.#basePath.length) : all;
    const route = matchRoute(request.method, segments, request.headers, this.#routes);
    const entry: CheckedExchange = {
      name: `${request.method} /${segments.join('/')}`,
      ...(route === undefined ? {} : { route }),
      bodyChecked: false,
      problems: [],
      begunAt: performance.now(),
    };
    this.exchanges.push(entry);
    let status: number | undefined;
    let headers: Record<string, string> = {};
    let streamText = '';
    let open = true;
    const finish = (text: string | undefined): void => {
      if (!open) return;
      open = false;
      entry.endedAt = performance.now();
      if (route === undefined || status === undefined) return;
      try {
        const checked = checkAnswer(route, segments, { url, status, headers, ...(text === undefined ? {} : { text }) });
        entry.problems = checked.problems;
        entry.bodyChecked = checked.bodyChecked;
        if (checked.seen !== undefined) entry.seen = checked.seen;
      } catch (error) {
        entry.problems = [`Test bug: the route check threw: ${(error as Error).message}`];
      }
    };
    return {
      headers(code, received) {
        if (!open) return;
        status = code;
        entry.status = code;
        headers = received;
        // A stream the host serves is checked on its status line and headers; its frames are run
        // events, read and checked as the run's log.
        if (request.stream && code === 200) finish(undefined);
      },
      chunk(bytes) {
        if (open && streamText.length < STREAM_ERROR_BYTES) streamText += Buffer.from(bytes).toString('utf8');
      },
      end(outcome: { text: string } | { by: StreamEnd }) {
        // A refused stream the harness closed before reading its body is checked on its status only.
        if ('text' in outcome) finish(outcome.text);
        else finish(outcome.by === 'host' || streamText !== '' ? streamText : undefined);
      },
      fail() {
        if (!open) return;
        if (status === undefined || !request.stream) entry.unanswered = true;
        finish(request.stream && status !== undefined && streamText !== '' ? streamText : undefined);
        if (entry.unanswered) entry.problems = [];
      },
    };
  }
}

/** Tells every recorder given the same exchange. */
export function teeRecorder(...recorders: Array<ExchangeRecorder | undefined>): ExchangeRecorder {
  const live = recorders.filter((r): r is ExchangeRecorder => r !== undefined);
  return {
    begin(request) {
      const records = live.map((r) => r.begin(request));
      return {
        headers: (status, headers) => {
          for (const r of records) r.headers(status, headers);
        },
        chunk: (bytes) => {
          for (const r of records) r.chunk(bytes);
        },
        end: (outcome) => {
          for (const r of records) r.end(outcome);
        },
        fail: (error) => {
          for (const r of records) r.fail(error);
        },
      };
    },
  };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? url;
  }
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}
