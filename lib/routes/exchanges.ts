// Every exchange of a certification, matched to its route and checked as it ends: the recorder
// every client of the target reports to (beside the archive's, when one is written). Each answer
// is checked once, when it is whole (./answer.ts), an SSE answer frame by frame as it arrives
// (./frames.ts), and only the outcome is kept, with the member paths served (./members.ts), so
// the log holds no bodies; the findings are charged after the legs have run (./check.ts), in an
// order that does not depend on when the legs ran.

import type { ExchangeRecord, ExchangeRecorder, SentRequest, StreamEnd } from '../client/recorder.ts';
import { isJsonObject } from '../json-value.ts';
import { knownEventTypes } from '../schemas/index.ts';
import { checkAnswer, type StatusSeen } from './answer.ts';
import { type FrameCounts, frameChecker } from './frames.ts';
import { MemberCensus } from './members.ts';
import { answerFor, ROUTES, type Route } from './table.ts';

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
  /** For an SSE answer: the run events its frames carried, checked against the envelope schema. */
  frames?: FrameCounts;
  /** performance.now() when the request went out and when its answer was whole. */
  begunAt: number;
  endedAt?: number;
}

/**
 * The route a request names: method, the path's segments after the base path, and its headers. A
 * route told apart by a request header wins when the request carries it; else the first route
 * that fits and needs no header. One pass over the table with each template read once: every
 * request of a certification is matched here (filters and closures per route cost about 10 µs a
 * request, most of the route step's share of `begin`).
 */
export function matchRoute(method: string, segments: readonly string[], headers: Record<string, string>, routes: readonly Route[] = ROUTES): Route | undefined {
  let plain: Route | undefined;
  for (let i = 0; i < routes.length; i++) {
    const route = routes[i]!;
    if (route.method !== method || !templateFits(templateParts(route.template), segments)) continue;
    if (route.requestHeader === undefined) plain ??= route;
    else if (headers[route.requestHeader] !== undefined) return route;
  }
  return plain;
}

/** One segment of a route template: a literal, or a `{name}` with what must end the path segment (`{runId}:fork`). */
type TemplatePart = { literal: string } | { suffix: string };

const templates = new Map<string, readonly TemplatePart[]>();

/** A route template's segments, read once per template (the templates are the route table's, a fixed set). */
function templateParts(template: string): readonly TemplatePart[] {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template
      .split('/')
      .filter(Boolean)
      .map((part) => (part.startsWith('{') ? { suffix: part.slice(part.indexOf('}') + 1) } : { literal: part }));
    templates.set(template, parts);
  }
  return parts;
}

/** Each template segment fits its path segment: literally, or a `{name}` with what follows it as the segment's end. */
function templateFits(parts: readonly TemplatePart[], segments: readonly string[]): boolean {
  if (parts.length !== segments.length) return false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if ('literal' in part ? part.literal !== segment : !(segment.length > part.suffix.length && segment.endsWith(part.suffix))) return false;
  }
  return true;
}

/**
 * The event types whose payloads a schema check reads: the eval.*, agent.* and provider.* ones
 * the served facts validate by type (scenarios/support/served-facts/shape.ts, agents.ts).
 */
function payloadSchemaChecked(): (type: string) => boolean {
  const known = new Set(knownEventTypes().filter((type) => /^(eval|agent|provider)\./.test(type)));
  return (type) => known.has(type);
}

export class ExchangeLog implements ExchangeRecorder {
  readonly #basePath: string[];
  readonly #routes: readonly Route[];
  readonly exchanges: CheckedExchange[] = [];
  /** Every member path served, per document (./members.ts). */
  readonly census = new MemberCensus();
  readonly #payloadChecked = payloadSchemaChecked();

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
      begunAt: request.sentAt ?? performance.now(),
    };
    this.exchanges.push(entry);
    let status: number | undefined;
    let headers: Record<string, string> = {};
    let streamText = '';
    let open = true;
    let frames: ReturnType<typeof frameChecker> | undefined;
    let decoder: TextDecoder | undefined;
    let decoded: string | undefined;
    const census = this.census;
    const payloadChecked = this.#payloadChecked;
    const countEvent = (event: unknown): void => census.addEvent(event, payloadChecked);
    const finish = (text: string | undefined, json?: unknown): void => {
      if (!open) return;
      open = false;
      entry.endedAt = performance.now();
      if (route === undefined || status === undefined) return;
      try {
        const checked = checkAnswer(route, segments, {
          url,
          status,
          headers,
          ...(text === undefined ? {} : { text }),
          ...(json === undefined ? {} : { json }),
        });
        entry.problems = checked.problems;
        entry.bodyChecked = checked.bodyChecked;
        if (checked.seen !== undefined) entry.seen = checked.seen;
        if (checked.body !== undefined && checked.reach !== undefined) {
          // A poll page's events are counted as events, as an SSE frame's are.
          const pollEvents = route.name === 'poll' && isJsonObject(checked.body) && Array.isArray(checked.body.events) ? checked.body.events : [];
          census.add(`${route.name} ${status}`, checked.body, checked.reach, (path) => path === 'events[]' && pollEvents.length > 0);
          for (const event of pollEvents) countEvent(event);
        }
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
        // A stream the host serves is checked on its status line and headers, then frame by frame:
        // its frames are run events (./frames.ts).
        if (request.stream && code === 200) {
          finish(undefined);
          const eventStream = route !== undefined && answerFor(route, code)?.body === 'event-stream';
          if (eventStream && entry.problems.length === 0) {
            frames = frameChecker(countEvent, entry.problems, request.runEvents);
            entry.frames = frames.counts;
          }
        }
      },
      chunk(bytes) {
        if (frames !== undefined) {
          decoder ??= new TextDecoder();
          decoded = decoder.decode(bytes, { stream: true });
          frames.feed(decoded);
        } else if (open && streamText.length < STREAM_ERROR_BYTES) streamText += Buffer.from(bytes).toString('utf8');
      },
      end(outcome: { text: string; json?: unknown } | { by: StreamEnd }) {
        frames?.release();
        // A refused stream the harness closed before reading its body is checked on its status only.
        if ('text' in outcome) finish(outcome.text, outcome.json);
        else finish(outcome.by === 'host' || streamText !== '' ? streamText : undefined);
      },
      takeFrame: (data) => frames?.take(data),
      takeText(end) {
        if (end) return decoder?.decode();
        const text = decoded;
        decoded = undefined;
        return text;
      },
      fail() {
        frames?.release();
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
        takeFrame: (data) => {
          for (const r of records) if (r.takeFrame !== undefined) return r.takeFrame(data);
          return undefined;
        },
        takeText: (end) => {
          for (const r of records) if (r.takeText !== undefined) return r.takeText(end);
          return undefined;
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
