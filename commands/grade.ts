// The `grade` command, an auditor's tool (docs/auditing.md "Recomputing a grade"): the reference grade of an
// eval run, recomputed from the run's own event log with the in-repo grader.
// - `--events FILE`: the log as a file, in any form a host serves it (lib/client/events-text.ts);
//   the grade is printed as JSON on stdout, the form read on stderr.
// - `--base-url URL --run ID`: the log and the served summary are fetched from the host
//   (docs/wire.md §5.2, §5.3, §7) and compared member by member (support/grade-compare.ts).
// Exit codes (README "Exit codes"): 0 graded / equal, 1 a served member differs, 2 a usage,
// input or transport problem. The API key is never printed: every line leaves through the
// redactor (lib/redact.ts).

import {
  createClient,
  discover,
  evalSuiteFacet,
  waitForSummary,
  HarnessCapReached,
  readRunEvents,
  ResponseTooDeep,
  TransportError,
  describeAnswer,
  type Client,
  type EvalSummaryResult,
  type RunEvent,
} from '../lib/client/index.ts';
import { compareSummary, hostCeilingPassed, type MemberComparison } from './support/grade-compare.ts';
import { given, readMaxEvents } from './support/run-settings.ts';
import { SETTING_FLAGS } from './support/setting-flags.ts';
import { type EventsCap, FORM_NAMES, tooManyEvents, type ReadEvents } from '../lib/client/events-text.ts';
import { readEventsFile } from '../lib/client/events-stream.ts';
import { wholeLogProblem } from '../lib/client/event-log.ts';
import { gradeRun, type EvalSuite, type RunGrade } from '../lib/grader/index.ts';
import { JsonTooDeep, parseJsonBounded } from '../lib/json-depth.ts';
import { cannotStart, type Io } from '../lib/io.ts';
import { isJsonObject } from '../lib/json-value.ts';
import { Redactor } from '../lib/redact.ts';
import { checkSuite, validateRunEvent } from '../lib/schemas/index.ts';
import { archivedRun } from '../lib/archive/archived-run.ts';
import { readArchiveFile } from '../lib/archive/replay.ts';
import { MAX_ARCHIVE_BYTES, MAX_DOCUMENT_BYTES, readInputText } from '../lib/input-file.ts';

export interface GradeOptions {
  suite: string;
  events?: string;
  baseUrl?: string;
  apiKey?: string;
  run?: string;
  archive?: string;
  /** The cap on events per run, as `run --max-events`: a log holding more is refused, whatever its source. */
  maxEvents?: string;
}

/** How long the log of one run is read for, as one eval-run wait of the legs. */
const EVENTS_DEADLINE_MS = 30_000;
/** How long a summary answering 409 after the run's terminal event is asked again. */
const SUMMARY_DEADLINE_MS = 10_000;

/** Reads a JSON file; the error names the file and the problem in one line. */
function readJsonFile(path: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = readInputText(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    return { ok: false, message: `${path}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    return { ok: true, value: parseJsonBounded(text, `${path}: the ${what}`) };
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
    return { ok: false, message: `${path}: the ${what} is not JSON (${(error as Error).message})` };
  }
}

/** The suite of `--suite`: an AgentEvalSuite, or an eval-suite fixture document carrying one. */
function readSuite(path: string): { ok: true; suite: EvalSuite } | { ok: false; message: string } {
  const file = readJsonFile(path, 'suite');
  if (!file.ok) return file;
  const value = file.value as Record<string, unknown> | null;
  const suite = value !== null && typeof value === 'object' && 'suite' in value && 'expectedGrade' in value ? value.suite : value;
  const check = checkSuite(suite);
  if (!check.ok) return { ok: false, message: `${path}: not an AgentEvalSuite (${check.errors.slice(0, 3).join('; ')})` };
  return { ok: true, suite: suite as EvalSuite };
}

/** The first event that is not a v2 run event (docs/wire.md §5.1), named. */
function invalidEvent(events: unknown[], where: string): string | undefined {
  for (let i = 0; i < events.length; i += 1) {
    const check = validateRunEvent(events[i]);
    if (!check.ok) return `${where}: event ${i} is not a v2 run event (${check.errors.slice(0, 3).join('; ')})`;
  }
  return undefined;
}

/**
 * A log that is not the whole log of one ended run, said where it was read: graded, it would be a
 * grade of what the run never was (a gap drops a trial's cost, a second run's events add trials),
 * and the live read refuses it (lib/client/event-log.ts).
 */
function inWhole(problem: string | undefined, where: string): string | undefined {
  return problem === undefined ? undefined : `${where}: ${problem}`;
}

/**
 * Why `events` are not a run of `suite`, or undefined: an eval run's log holds exactly one
 * `eval.started` (docs/wire.md §2), and it names the suite the run ran, as the legs hold it (rule
 * `served-started`): graded against another suite, a run would pass a suite it never ran.
 */
function ofSuite(events: readonly unknown[], suite: EvalSuite, where: string): string | undefined {
  const started = events.filter((event) => isJsonObject(event) && event.type === 'eval.started') as RunEvent[];
  if (started.length !== 1) return `${where}: ${started.length} eval.started events; an eval run's log holds exactly one (docs/wire.md §2)`;
  const payload = isJsonObject(started[0]!.payload) ? started[0]!.payload : {};
  if (payload.suiteId === suite.suiteId && payload.suiteVersion === suite.version) return undefined;
  return `${where}: a run of suite ${JSON.stringify(payload.suiteId)} version ${JSON.stringify(payload.suiteVersion)} (its eval.started), not of the suite given, ${JSON.stringify(suite.suiteId)} version ${JSON.stringify(suite.version)} (--suite)`;
}

export async function gradeCommand(options: GradeOptions, rawIo: Io): Promise<number> {
  const apiKey = given(options.apiKey, 'OPENWOP_API_KEY');
  const io = new Redactor([apiKey]).io(rawIo);
  if (options.events !== undefined && options.baseUrl !== undefined) return cannotStart(io, 'give --events or --base-url, not both');
  const sources = [options.events, options.baseUrl, options.archive].filter((source) => source !== undefined).length;
  if (sources > 1) return cannotStart(io, 'give one of --events, --base-url and --archive');
  if (sources === 0) return cannotStart(io, 'give --events FILE, or --base-url URL --run ID, or --archive ARCHIVE --run ID');
  const cap = readMaxEvents(options.maxEvents);
  if (!cap.ok) return cannotStart(io, cap.problem);
  const suite = readSuite(options.suite);
  if (!suite.ok) return cannotStart(io, suite.message);
  const eventsCap: EventsCap = { max: cap.maxEvents, setting: SETTING_FLAGS.maxEvents };
  if (options.events !== undefined) return gradeFile(suite.suite, options.events, eventsCap, io);
  if (options.archive !== undefined) return gradeArchived(suite.suite, options.archive, options.run, eventsCap, io);
  if (options.run === undefined || options.run === '') return cannotStart(io, '--run ID is required with --base-url');
  if (!apiKey) return cannotStart(io, '--api-key (or OPENWOP_API_KEY) is required with --base-url');
  if (!isHttpUrl(options.baseUrl!)) return cannotStart(io, `--base-url must be an absolute http(s) URL, got "${options.baseUrl}"`);
  const client = createClient({ baseUrl: options.baseUrl!, apiKey, maxEvents: cap.maxEvents, names: SETTING_FLAGS });
  try {
    return await gradeServed(suite.suite, client, options.run, io);
  } catch (error) {
    // A harness bug: one line, through the redactor, never a stack trace that could carry what a
    // host sent.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return cannotStart(io, `the harness failed (a harness bug, not the host's fault): ${message.split('\n')[0]}`);
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Why an events file could not be read: the error's code (ENOENT, EFBIG, …), said in full where its code alone would not tell the user what to do. */
export function eventsReadProblem(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  // A JSON array or a poll response is one JSON value, read whole; NDJSON and SSE are read as they come.
  if (code === 'ERR_STRING_TOO_LONG')
    return `${code}: one JSON value longer than the longest string this runtime makes, about 512 MiB; give the events as NDJSON or an SSE transcript, which are read as they come`;
  return code ?? message;
}

function gradeFile(suite: EvalSuite, path: string, cap: EventsCap, io: Io): number {
  // Read as it comes (lib/client/events-stream.ts): the text is not held beside its events.
  let read: ReadEvents;
  try {
    read = readEventsFile(path, MAX_ARCHIVE_BYTES, cap);
  } catch (error) {
    return cannotStart(io, `${path}: cannot read the events (${eventsReadProblem(error)})`);
  }
  if (!read.ok) return cannotStart(io, read.message);
  if (read.events.length === 0) return cannotStart(io, `${path}: ${FORM_NAMES[read.form]} with no event in it`);
  const invalid = invalidEvent(read.events, path) ?? inWhole(wholeLogProblem(read.events, read.runId), path) ?? ofSuite(read.events, suite, path);
  if (invalid !== undefined) return cannotStart(io, invalid);
  io.err(`read ${read.events.length} event(s) from ${path} as ${FORM_NAMES[read.form]}\n`);
  const grade = gradeRun(suite, read.events as RunEvent[]);
  const note = anomalyNote(grade.anomalies);
  if (note !== undefined) io.err(note);
  io.out(`${JSON.stringify(grade, null, 2)}\n`);
  return 0;
}

async function gradeServed(suite: EvalSuite, client: Client, runId: string, io: Io): Promise<number> {
  let events: RunEvent[];
  let answer: EvalSummaryResult;
  let ceiling: number | undefined;
  try {
    // The host's advertised maxCostUsdPerSuite, which the grade cannot know (CONTRACT §6); a
    // discovery the host does not serve leaves the comparison without it.
    ceiling = costCeiling(await discover(client).then((found) => (found.ok ? found.document : undefined)));
    const read = await readRunEvents(client, runId, { deadlineMs: EVENTS_DEADLINE_MS });
    if (!read.ok) return cannotStart(io, `cannot read the events of run ${runId}: ${read.reason}`);
    events = read.events;
    // A host may answer 409 for a moment after the terminal event (CONTRACT §6); the legs wait too.
    answer = await waitForSummary(client, runId, SUMMARY_DEADLINE_MS);
    io.err(`read ${events.length} event(s) of run ${runId} (via ${read.via})\n`);
  } catch (error) {
    if (error instanceof TransportError || error instanceof HarnessCapReached || error instanceof ResponseTooDeep) {
      return cannotStart(io, `cannot read run ${runId}: ${error.message}`);
    }
    throw error;
  }
  const path = `/runs/${runId}/eval-summary`;
  if (answer.kind === 'running') return cannotStart(io, `GET ${path} answered 409: the run is not terminal${answer.status ? ` (${answer.status})` : ''}`);
  if (answer.kind !== 'ok') return cannotStart(io, `GET ${path} answered ${describeAnswer(answer.result)}`);
  const where = `the events of run ${runId}`;
  const invalid = invalidEvent(events, where) ?? inWhole(wholeLogProblem(events, runId), where) ?? ofSuite(events, suite, where);
  if (invalid !== undefined) return cannotStart(io, invalid);
  const grade = gradeRun(suite, events);
  const members = compareSummary(grade, answer.summary, ceiling);
  report(members, runId, events.length, grade, io, ceiling);
  return members.some((m) => m.outcome === 'different') ? 1 : 0;
}

/** `--archive ARCHIVE --run ID`: the served summary and the log, both as the archive recorded them. */
function gradeArchived(suite: EvalSuite, path: string, runId: string | undefined, cap: EventsCap, io: Io): number {
  if (runId === undefined || runId === '') return cannotStart(io, '--run ID is required with --archive');
  const archive = readArchiveFile(path);
  if (!archive.ok) return cannotStart(io, archive.reason);
  const run = archivedRun(archive.har, runId);
  if (!run.ok) return cannotStart(io, `${path}: ${run.reason}`);
  if (run.events.length > cap.max) return cannotStart(io, tooManyEvents(`the events of run ${runId} in ${path}`, cap).message);
  const where = `the events of run ${runId} in ${path}`;
  const invalid = invalidEvent(run.events, where) ?? inWhole(wholeLogProblem(run.events, runId), where) ?? ofSuite(run.events, suite, where);
  if (invalid !== undefined) return cannotStart(io, invalid);
  io.err(`read ${run.events.length} event(s) of run ${runId} from ${run.reads} archived read(s) in ${path}\n`);
  const grade = gradeRun(suite, run.events as RunEvent[]);
  const ceiling = costCeiling(run.discovery);
  const members = compareSummary(grade, run.summary, ceiling);
  report(members, runId, run.events.length, grade, io, ceiling);
  return members.some((m) => m.outcome === 'different') ? 1 : 0;
}

/** Discovery `agents.evalSuite.maxCostUsdPerSuite` (RFC 0081 §D), when the document states a number. */
function costCeiling(document: unknown): number | undefined {
  const ceiling = evalSuiteFacet(document)?.maxCostUsdPerSuite;
  return typeof ceiling === 'number' ? ceiling : undefined;
}

function show(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

/**
 * What the grader could not grade as the log stands (a trial scored twice, a bracket never closed,
 * …), said beside the grade: a leg fails a run whose grade has any (`openwop.requirement.0244.trials-per-task`), and a
 * grade or a comparison that looks clean must not hide them.
 */
function anomalyNote(anomalies: readonly string[]): string | undefined {
  if (anomalies.length === 0) return undefined;
  const more = anomalies.length > 1 ? `; and ${anomalies.length - 1} more` : '';
  return `note: the log has ${anomalies.length} anomaly(ies) the grade was recomputed around (its anomalies member lists each): ${anomalies[0]}${more}\n`;
}

function report(members: MemberComparison[], runId: string, eventCount: number, grade: RunGrade, io: Io, ceiling?: number): void {
  const redacted = grade.redactedCallCount ?? 0;
  io.out(`the summary served for run ${runId} against the grade recomputed from its ${eventCount} event(s):\n`);
  const over = hostCeilingPassed(grade, ceiling);
  if (over !== undefined)
    io.out(
      `  (the run cost ${grade.totalCostUsd} USD, over the host's advertised maxCostUsdPerSuite of ${over}: its suite must not pass, so passed is held to false, CONTRACT §6)\n`,
    );
  const width = Math.max(...members.map((m) => m.member.length));
  for (const m of members) {
    const label = m.outcome === 'different' ? 'DIFFERENT ' : m.outcome === 'equal' ? 'equal     ' : 'not served';
    io.out(`  ${label}  ${m.member.padEnd(width)}  recomputed ${show(m.recomputed)}, served ${show(m.served)}\n`);
  }
  if (redacted > 0) {
    io.out(`note: ${redacted} tool call(s) carry no inputs (RFC 0244 UQ 6): a member that depends on argument matching cannot be recomputed exactly\n`);
  }
  const note = anomalyNote(grade.anomalies);
  if (note !== undefined) io.out(note);
  const different = members.filter((m) => m.outcome === 'different').map((m) => m.member);
  io.out(
    different.length === 0
      ? `result: equal: every member served agrees with the recomputed grade\n`
      : `result: ${different.length} member(s) differ: ${different.join(', ')}\n`,
  );
}
