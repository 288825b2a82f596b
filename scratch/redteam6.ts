// Red-team round 6, surface 2: one-member known-bad hosts on what the route table and CONTRACT §8
// fix that no round attacked: cancel and erase semantics, error envelopes (status vs code),
// fork answers, unknown ids served.

import { type KnownBadHost, server } from '../hosts/known-bad/catalogue/build.ts';
import { HttpError } from '../hosts/reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR as H } from '../hosts/reference/host-behaviour.ts';
import type { RunEventDoc } from '../hosts/reference/store.ts';

type Obj = Record<string, unknown>;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Serves each event as it was first served: an erase after that changes nothing a reader sees. */
function firstServedStream(): (doc: RunEventDoc) => RunEventDoc {
  const seen = new Map<string, RunEventDoc>();
  return (doc) => {
    const key = `${(doc as unknown as Obj).runId as string}#${doc.sequence}`;
    const before = seen.get(key);
    if (before !== undefined) return before;
    seen.set(key, doc);
    return doc;
  };
}

function firstServedPoll(): (body: Obj) => Obj {
  const seen = new Map<string, unknown>();
  return (body) => {
    const events = (body.events as Obj[] | undefined)?.map((e) => {
      const key = `${String(body.runId)}#${String(e.sequence)}`;
      if (!seen.has(key)) seen.set(key, e);
      return seen.get(key);
    });
    return events === undefined ? body : { ...body, events };
  };
}

const projected = (id: string) => id.replace('/', '~2F');

export const REDTEAM_HOSTS: KnownBadHost[] = [
  {
    name: 'rt6-cancel-finished-run-obeyed',
    defect: "a cancel of the caller's own finished run is answered 200 cancelled and appends run.cancelled after its terminal event",
    clause: 'CONTRACT §8 (cancel: 409 run_terminal); docs/wire.md §5.4',
    ...server({
      runFor: (route, tenant, runId, run) =>
        route === 'cancel' && run !== undefined && run.tenant === tenant && ENDED.has(run.status)
          ? ({ ...run, status: 'running' } as typeof run)
          : H.runFor(route, tenant, runId, run),
    }),
  },
  {
    name: 'rt6-erase-kept-on-stream',
    defect: 'erase answers 204, but the SSE stream keeps serving the tool content it served before',
    clause: 'RFC 0252 (erase of recorded tool content) / CONTRACT §5 seam-erase',
    ...server({ streamedEvent: firstServedStream() }),
  },
  {
    name: 'rt6-erase-kept-on-poll',
    defect: 'erase answers 204, but poll pages keep serving the tool content they served before',
    clause: 'RFC 0252 (erase of recorded tool content) / CONTRACT §5 seam-erase',
    ...server({ polledEvents: firstServedPoll() }),
  },
  {
    name: 'rt6-unknown-poll-409-not-found',
    defect: 'a poll of an unknown (or foreign) run is refused 409 with code not_found (status and code disagree)',
    clause: 'CONTRACT §8 (a registered code comes with its registered status; a 404 carries not_found)',
    ...server({
      runFor: (route, tenant, runId, run) => {
        const mine = H.runFor(route, tenant, runId, run);
        if (route === 'poll' && mine === undefined) throw new HttpError(409, 'not_found', 'no such run');
        return mine;
      },
    }),
  },
  {
    name: 'rt6-unknown-cancel-400-not-found',
    defect: 'a cancel of an unknown (or foreign) run is refused 400 not_found',
    clause: 'CONTRACT §8 (a registered code comes with its registered status)',
    ...server({
      runFor: (route, tenant, runId, run) => {
        const mine = H.runFor(route, tenant, runId, run);
        if (route === 'cancel' && mine === undefined) throw new HttpError(400, 'not_found', 'no such run');
        return mine;
      },
    }),
  },
  {
    name: 'rt6-unknown-erase-200-like',
    defect: 'an erase of an unknown (or foreign) run is refused 403 forbidden for both',
    clause: 'CONTRACT §8 (erase refusals 400/403/404)— expected clean (control)',
    ...server({
      runFor: (route, tenant, runId, run) => {
        const mine = H.runFor(route, tenant, runId, run);
        if (route === 'seam-erase' && mine === undefined) throw new HttpError(403, 'forbidden', 'no');
        return mine;
      },
    }),
  },
  {
    name: 'rt6-fork-events-url-source',
    defect: "the forkRun answer's eventsUrl is the source run's stream",
    clause: 'CONTRACT §8 (fork: eventsUrl its stream) / docs/wire.md §5.5',
    ...server({
      forkAnswer: (body) => ({
        ...body,
        eventsUrl: String(body.eventsUrl).replace(projected(String(body.runId)), projected(String(body.sourceRunId))),
      }),
    }),
  },
  {
    name: 'rt6-fork-answer-status-completed',
    defect: 'the forkRun answer says completed while the fork has just started',
    clause: 'CONTRACT §8 (run-status-consistent)',
    ...server({ forkAnswer: (body) => ({ ...body, status: 'completed' }) }),
  },
  {
    name: 'rt6-unknown-snapshot-served',
    defect: 'a snapshot of an id no host minted (or a foreign one) is served 200 as a pending run of that id',
    clause: 'CONTRACT §8 (unknown ids 404) / RFC 0244 §H',
    ...server({
      runFor: (route, tenant, runId, run) => {
        const mine = H.runFor(route, tenant, runId, run);
        if (route === 'snapshot' && mine === undefined && run === undefined) throw new HttpError(404, 'not_found', `no run ${runId} here`);
        return mine;
      },
    }),
  },
  {
    name: 'rt6-erased-run-snapshot-gone',
    defect: "after the owner's erase, the run's snapshot answers 404 (the run itself forgotten)",
    clause: 'CONTRACT §5 (erase removes tool content only) — expected OPEN',
    ...server({
      runFor: (route, tenant, runId, run) =>
        route === 'snapshot' && run !== undefined && run.toolContentErased ? undefined : H.runFor(route, tenant, runId, run),
    }),
  },
];

export const HONEST: KnownBadHost = { name: 'reference', defect: 'none (the honest reference host)', clause: 'RFC 0081 §A', base: {}, options: {} };
