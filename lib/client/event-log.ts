// The log of one run as the event reader (./events.ts) takes it in: events kept in arrival order
// and deduplicated by `sequence`; a duplicate, a gap or a step backwards is noted as the host's
// defect (at most MAX_PROBLEMS spelled out), and the cap on events per run is enforced here.

import type { RunEvent } from '../run-event.ts';
import { isJsonObject } from './util.ts';

/** A run event as received (lib/run-event.ts); only `sequence` and `type` are checked here. */
export type { RunEvent } from '../run-event.ts';

export const TERMINAL_EVENT_TYPES: readonly string[] = ['run.completed', 'run.failed', 'run.cancelled'];

/** At most this many defects are spelled out in a reason. */
const MAX_PROBLEMS = 20;

export class Log {
  readonly events: RunEvent[] = [];
  private readonly seen = new Set<number>();
  private readonly problems: string[] = [];
  private extraProblems = 0;
  last = -1;
  terminal = false;
  limit: string | undefined;

  constructor(
    private readonly maxEvents: number,
    /** How the user sets the cap (lib/setting-names.ts). */
    private readonly capName: string,
  ) {}

  problem(text: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(text);
    else this.extraProblems++;
  }

  /** Takes one event as received; returns false once reading must stop. */
  accept(raw: unknown, where: string): boolean {
    if (!isJsonObject(raw) || !isSequence(raw.sequence) || typeof raw.type !== 'string') {
      this.problem(`${where} carried an event without an integer sequence ≥0 and a string type`);
      return true;
    }
    const event = raw as RunEvent;
    const seq = event.sequence;
    if (this.terminal) {
      this.problem(`sequence ${seq} (${event.type}) came after the terminal event, which is the log's last`);
      return true;
    }
    if (this.seen.has(seq)) {
      this.problem(`sequence ${seq} was delivered twice`);
      return true;
    }
    if (seq < this.last) this.problem(`sequence ${seq} arrived after ${this.last}`);
    else if (seq > this.last + 1) {
      this.problem(this.last < 0 ? `sequence gap: the log starts at ${seq}, not 0` : `sequence gap: ${this.last} is followed by ${seq}`);
    }
    this.seen.add(seq);
    this.events.push(event);
    this.last = Math.max(this.last, seq);
    if (TERMINAL_EVENT_TYPES.includes(event.type)) this.terminal = true;
    if (this.events.length >= this.maxEvents && !this.terminal) {
      this.limit = `more than ${this.maxEvents} events without a terminal event: the harness cap of ${this.maxEvents} events per run, ${this.capName}, was reached; reading stopped and the connection was dropped`;
      return false;
    }
    return true;
  }

  defects(): string | undefined {
    if (this.problems.length === 0) return undefined;
    const more = this.extraProblems > 0 ? `; and ${this.extraProblems} more` : '';
    return this.problems.join('; ') + more;
  }
}

export function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Why `events`, in the order given, are not the whole log of one run that has ended, or undefined
 * when they are: a log as the live read takes it (`Log`: sequence 0 first, then one more each
 * time, nothing twice, nothing after the terminal event, docs/wire.md §5.1) that ends with its
 * terminal event (`run.completed`, `run.failed` or `run.cancelled`), whose events all carry one
 * `runId` (`runId`, when given: the run a poll response names) and no two one `eventId`
 * (CONTRACT §3 "Events of one trial": the legs' rules `served-event-run-id`, `served-event-ids`).
 * `grade` refuses such a log (docs/auditing.md "Recomputing a grade"), as a leg does.
 */
export function wholeLogProblem(events: readonly unknown[], runId?: string): string | undefined {
  const log = new Log(Number.POSITIVE_INFINITY, '');
  events.forEach((event, i) => {
    log.accept(event, `event ${i}`);
  });
  const problems: string[] = [];
  const defects = log.defects();
  if (defects !== undefined) problems.push(defects);
  if (!log.terminal) problems.push(`no terminal event (${TERMINAL_EVENT_TYPES.join(', ')}): the log is cut before its run ended`);
  const run = runId ?? (isJsonObject(events[0]) ? events[0].runId : undefined);
  const foreign = events.filter((event) => isJsonObject(event) && event.runId !== run);
  if (foreign.length > 0) {
    const first = foreign[0] as RunEvent;
    problems.push(
      `${foreign.length} event(s) carry another runId than ${JSON.stringify(run)}, the first at sequence ${String(first.sequence)} (${JSON.stringify(first.runId)}): one log holds one run's events`,
    );
  }
  const ids = new Map<unknown, unknown>();
  let repeated = 0;
  let firstRepeat = '';
  for (const event of events) {
    if (!isJsonObject(event)) continue;
    const earlier = ids.get(event.eventId);
    if (earlier === undefined) ids.set(event.eventId, event.sequence);
    else if (repeated++ === 0) firstRepeat = `sequences ${String(earlier)} and ${String(event.sequence)} share eventId ${JSON.stringify(event.eventId)}`;
  }
  if (repeated > 0) problems.push(`${repeated} event(s) repeat an earlier eventId (${firstRepeat})`);
  return problems.length === 0 ? undefined : `not the whole log of one ended run: ${problems.join('; ')}`;
}
