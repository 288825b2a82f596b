// What this harness writes in an archive beyond HAR 1.2 (./har.ts), held to that before the
// archive is read (docs/auditing.md "Replaying a certification"):
// - the certification's settings (`log._certification`), each as `run` itself accepts it, before
//   `verify --replay` runs the certification again with them: an archive not written so (a
//   concurrency of 0, a seed that is no seed, ten million generated suites, a timeout no timer
//   holds) is an input problem named in one line, exit 2, never a stack trace or a replay that
//   runs out of memory;
// - a stream's chunks (`response._chunks`), which join to its body (`content.text`) as the
//   recorder writes them (./recorder.ts): the replay serves the chunks, `grade --archive` and any
//   HAR reader the body, so an archive whose two differ says two things of one answer, and a
//   replay of the one would vouch for the other; `_endedBy` and `_failure` in their values.

import { isSeed } from '../certification-seed.ts';
import { isJsonObject } from '../json-value.ts';
import { MAX_CONCURRENCY } from '../ledger/schedule.ts';
import { MAX_GENERATED_SUITES } from '../ledger/target.ts';
import { MAX_TIMER_MS } from '../timers.ts';

const isIntegerIn = (value: unknown, low: number, high: number): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= low && value <= high;

/** Every way `har` is not what this harness writes beyond HAR 1.2 (already checked), at most a few named. */
export function writtenShapeProblems(har: { log: { _certification?: unknown; entries: readonly unknown[] } }): string[] {
  const problems = settingsProblems(har.log._certification);
  har.log.entries.forEach((entry, i) => {
    const response = isJsonObject(entry) && isJsonObject(entry.response) ? entry.response : {};
    const where = `/log/entries/${i}/response`;
    if (response._failure !== undefined && !FAILURES.has(response._failure as string))
      problems.push(`${where}/_failure must be one of ${[...FAILURES].join(', ')}`);
    if (response._chunks === undefined) {
      if (response._endedBy !== undefined) problems.push(`${where}/_endedBy belongs to a stream, which keeps _chunks`);
      return;
    }
    const chunks = response._chunks;
    if (!Array.isArray(chunks) || !chunks.every((c) => isJsonObject(c) && typeof c.text === 'string' && typeof c.time === 'number' && c.time >= 0)) {
      problems.push(`${where}/_chunks must be a list of {time, text}`);
      return;
    }
    if (response._endedBy !== 'host' && response._endedBy !== 'harness') problems.push(`${where}/_endedBy must be host or harness`);
    const content = isJsonObject(response.content) ? response.content : {};
    if (chunks.map((c) => c.text).join('') !== (content.text ?? ''))
      problems.push(`${where}/_chunks do not join to its content.text: a stream's chunks are its body as it arrived`);
  });
  return problems;
}

const FAILURES = new Set(['no-answer', 'lost', 'too-large']);

/** Every way `settings` is not what `run` records, each naming the member; empty when it is. */
export function settingsProblems(settings: unknown): string[] {
  if (!isJsonObject(settings)) return ['/log/_certification is not an object'];
  const problems: string[] = [];
  const need = (member: string, holds: (value: unknown) => boolean, what: string, optional = false): void => {
    const value = settings[member];
    if (optional && value === undefined) return;
    if (!holds(value)) problems.push(`/log/_certification/${member} must be ${what}, got ${JSON.stringify(value) ?? 'nothing'}`);
  };
  need('seed', (v) => typeof v === 'string' && isSeed(v), 'a seed (16 to 64 lower-case hex digits)');
  for (const member of ['requireBehavior', 'tenantB', 'checkKeys']) need(member, (v) => typeof v === 'boolean', 'true or false');
  need('filter', (v) => typeof v === 'string', 'a string', true);
  need('concurrency', (v) => isIntegerIn(v, 1, MAX_CONCURRENCY), `an integer from 1 to ${MAX_CONCURRENCY}`);
  for (const member of ['requestTimeoutMs', 'legDeadlineMs'])
    need(member, (v) => isIntegerIn(v, 1, MAX_TIMER_MS), `an integer number of milliseconds from 1 to ${MAX_TIMER_MS}`, true);
  for (const member of ['maxEvents', 'maxResponseBytes']) need(member, (v) => isIntegerIn(v, 1, Number.MAX_SAFE_INTEGER), 'a positive integer', true);
  need('generated', (v) => isIntegerIn(v, 0, MAX_GENERATED_SUITES), `an integer from 0 to ${MAX_GENERATED_SUITES}`, true);
  need(
    'replaySuite',
    (v) => isJsonObject(v) && isJsonObject(v.suite) && (v.baseline === undefined || isJsonObject(v.baseline)),
    'an object with a suite object (and a baseline object, if any)',
    true,
  );
  return problems;
}
