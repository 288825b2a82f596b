// One eval run as the archive holds it, for `grade --archive ARCHIVE --run ID` (README
// "Recomputing a grade"): its event log, merged by `sequence` from every read of it the harness
// made (SSE transcripts of `GET /runs/{runId}/events`, poll bodies of `.../events/poll`,
// docs/wire.md §5.2, §5.3), and the last summary `GET /runs/{runId}/eval-summary` served with 200
// (docs/wire.md §7). The grade is then recomputed from those events exactly as from a host.

import { projectId } from '../client/ids.ts';
import { readEventsText } from '../client/events-text.ts';
import type { Har } from './har.ts';
import { isJsonObject, jsonDeepEqual } from '../json-value.ts';

export type ArchivedRun = { ok: true; events: unknown[]; summary: Record<string, unknown>; reads: number } | { ok: false; reason: string };

export function archivedRun(har: Har, runId: string): ArchivedRun {
  const base = `/runs/${projectId(runId)}`;
  const bySequence = new Map<number, unknown>();
  let reads = 0;
  let summary: Record<string, unknown> | undefined;
  let disagreement: string | undefined;
  for (const entry of har.log.entries) {
    const { pathname } = new URL(entry.request.url);
    if (entry.request.method !== 'GET' || entry.response.status !== 200) continue;
    const text = entry.response.content.text ?? '';
    if (pathname === `${base}/events` || pathname === `${base}/events/poll`) {
      const read = readEventsText(text, `${entry.request.method} ${pathname}`);
      if (!read.ok) continue;
      reads += 1;
      for (const event of read.events) {
        const sequence = isJsonObject(event) ? event.sequence : undefined;
        if (typeof sequence !== 'number') continue;
        const earlier = bySequence.get(sequence);
        if (earlier === undefined) bySequence.set(sequence, event);
        // CONTRACT §3: the log is one log, whichever form reads it, member for member (the legs'
        // rules served-poll-form and served-resumed-form); which read came first must not decide.
        else if (disagreement === undefined && !jsonDeepEqual(earlier, event))
          disagreement = `the archive's reads of the events of run ${runId} disagree at sequence ${sequence}: one log, whichever form reads it, serves the same events (CONTRACT §3)`;
      }
    } else if (pathname === `${base}/eval-summary`) {
      try {
        const body = JSON.parse(text) as unknown;
        if (isJsonObject(body)) summary = body;
      } catch {
        // A 200 whose body is not JSON is no summary; an earlier or later one may be.
      }
    }
  }
  if (reads === 0)
    return { ok: false, reason: `the archive holds no read of the events of run ${runId} (GET ${base}/events or ${base}/events/poll answered 200)` };
  if (disagreement !== undefined) return { ok: false, reason: disagreement };
  if (summary === undefined)
    return { ok: false, reason: `the archive holds no summary of run ${runId} (GET ${base}/eval-summary answered 200 with a JSON object)` };
  const events = [...bySequence.entries()].sort(([a], [b]) => a - b).map(([, event]) => event);
  return { ok: true, events, summary, reads };
}
