// The floods of the hostile-host catalogue (./catalogue.ts): a host that sends a million small
// events on every event read of every run, as fast as the socket takes them — the next write
// waits only for the socket to drain, and writing costs the host almost nothing (each write is
// built from one template), so what bounds the rate is the harness reading. On SSE, and on the
// long poll for a host that does not stream. What they prove is the memory bound of
// docs/certifying.md "Memory caps": every byte is charged before it is kept, so a flood on every
// stream at once is cut at the in-flight budget, not after the memory is spent.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { openSse, pump, sendText } from './helpers.ts';
import type { HostileBehaviour } from './catalogue.ts';

/** Events per flood (then a terminal one), and per write. */
const FLOOD_EVENTS = 1_000_000;
const EVENTS_PER_WRITE = 1_024;

/** A small run event of sequence `n`; the run's id as the harness asked for it. */
function eventText(runId: string, n: number): string {
  const type = n === FLOOD_EVENTS ? 'run.completed' : 'agent.decided';
  return `{"eventId":"flood-event-${String(n).padStart(10, '0')}","runId":${runId},"type":"${type}","payload":{},"timestamp":"2026-12-04T00:00:00Z","sequence":${n},"schemaVersion":1}`;
}

/** The run id of an events or poll path, as a JSON string. */
function runIdOf(req: IncomingMessage): string {
  const segment = /^\/runs\/([^/]+)\//.exec(new URL(req.url ?? '/', 'http://flood.invalid').pathname)?.[1] ?? 'unknown';
  return JSON.stringify(decodeURIComponent(segment.replace(/~([0-9A-F]{2})/g, '%$1')));
}

/** Writes events `from`… up to the terminal one, EVENTS_PER_WRITE a write, as `format` frames them. */
function flood(res: ServerResponse, from: number, format: (n: number) => string, end: boolean, after = ''): void {
  const writes = Math.ceil((FLOOD_EVENTS + 1 - from) / EVENTS_PER_WRITE);
  pump(
    res,
    (i) => {
      if (i === writes) return after === '' ? undefined : after;
      let text = '';
      const first = from + i * EVENTS_PER_WRITE;
      for (let n = first; n < first + EVENTS_PER_WRITE && n <= FLOOD_EVENTS; n++) text += format(n);
      return text;
    },
    writes + 1,
    end,
  );
}

export const FLOOD_BEHAVIOURS: readonly HostileBehaviour[] = [
  {
    name: 'flood-events',
    does: 'every event stream sends 1,000,000 small events as fast as the socket takes them, then run.completed',
    expect: { exit: 1, blockedNaming: ['--max-bytes-in-flight', '--max-response-bytes', '--max-events'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint !== 'events') return false;
      req.resume();
      openSse(res);
      const resumeAfter = Number(req.headers['last-event-id']);
      const runId = runIdOf(req);
      flood(res, Number.isInteger(resumeAfter) ? resumeAfter + 1 : 0, (n) => `id: ${n}\ndata: ${eventText(runId, n)}\n\n`, true);
      return true;
    },
  },
  {
    name: 'flood-poll',
    does: 'SSE debug is 400 unsupported_stream_mode; every poll answers a body of 1,000,000 small events as fast as the socket takes them',
    expect: { exit: 1, blockedNaming: ['--max-bytes-in-flight', '--max-response-bytes', '--max-events'], noPass: true },
    respond: (endpoint, req, res) => {
      if (endpoint === 'events') {
        req.resume();
        sendText(res, 400, JSON.stringify({ error: 'unsupported_stream_mode', message: 'updates only', details: { supported: ['updates'] } }));
        return true;
      }
      if (endpoint !== 'poll') return false;
      req.resume();
      const after = Number(new URL(req.url ?? '/', 'http://flood.invalid').searchParams.get('afterSequence'));
      const runId = runIdOf(req);
      res.writeHead(200, { 'content-type': 'application/json', 'openwop-version': '2.0' });
      const from = Number.isInteger(after) ? after + 1 : 0;
      res.write(`{"runId":${runId},"status":"completed","isTerminal":true,"lastSequence":${FLOOD_EVENTS},"events":[`);
      flood(res, from, (n) => `${n === from ? '' : ','}${eventText(runId, n)}`, true, ']}');
      return true;
    },
  },
];
