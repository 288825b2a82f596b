// `verify BUNDLE --replay ARCHIVE` (docs/auditing.md "Replaying a certification"): the certification run
// again, against a replay host answering from the archive (./replay-host.ts), with the seed and
// the settings the archive records; every row, every disposition and the witness digest must come
// out as the bundle has them. Before that, the archive must be the one bound to this bundle
// (lib/evidence/archive.ts). What the replay proves and what it cannot is in docs/auditing.md "Replaying a
// certification": it re-derives the checks and the grading from the recorded answers; it cannot
// show that the host really sent them. A replay runs at most REPLAY_DEADLINE_MS, or the bound the
// auditor gives (verify --replay-deadline), whatever the archive records: past it the legs not
// done are blocked, interrupted as a run's are at its deadline, and the replay is not reproduced,
// each row that moved named.

import { Worker } from 'node:worker_threads';
import { certifyTarget } from '../certify.ts';
import { bindingPath, checkBinding } from '../evidence/archive.ts';
import { decodeCanonicalBase64url, ed25519PublicKey, ed25519PublicKeyFromRaw } from '../evidence/ed25519.ts';
import { readBundleFile, readPublicKeyFile } from '../evidence/keys.ts';
import type { LedgerRow } from '../evidence/types.ts';
import { bundleRow, sortedProjectedRows, witnessDigest } from '../evidence/witness.ts';
import { cannotStart, notABundle, type Io } from '../io.ts';
import { isJsonObject, jsonDeepEqual } from '../json-value.ts';
import { canonicalJson, sha256Hex } from '../evidence/jcs.ts';
import { withDeadlines } from '../ledger/deadlines.ts';
import { Redactor } from '../redact.ts';
import { seconds } from '../client/util.ts';
import { readFilter } from '../leg-filter.ts';
import type { Scenario } from '../ledger/scenario.ts';
import { parseArchive, type Har, type ReadArchive } from './har.ts';
import { REPEAT_WAIT_MS, REPLAY_DEADLINE_MS, startReplayHost } from './replay-host.ts';
import { writtenShapeProblems } from './written-shape.ts';
import { DOMAIN_NAMES, type SettingNames } from '../setting-names.ts';
import { MAX_ARCHIVE_BYTES, MAX_DOCUMENT_BYTES, readInputFile, readInputText } from '../input-file.ts';

export interface ReplayRun {
  ok: boolean;
  /** Why the run could not be made (discovery not in the archive, say). */
  reason?: string;
  rows: LedgerRow[];
  /** Requests the archive did not hold. */
  misses: string[];
  /** Archived exchanges the replay never asked for. */
  unasked: string[];
  /** Requests asked more often than the archive holds them. */
  repeats: string[];
  /** Requests asked more often than the archive holds them, refused: their last answer took longer than a replay waits (replay-host.ts REPEAT_WAIT_MS). */
  refused: string[];
  /** The discovery document the replayed certification read, when it ran. */
  discovery?: Record<string, unknown>;
  /** Why the replay was stopped before its legs were done, when it was: its deadline passed. */
  stopped?: string;
}

/** Reads an archive file. */
export function readArchiveFile(path: string): ReadArchive {
  let bytes: Buffer;
  try {
    bytes = readInputFile(path, MAX_ARCHIVE_BYTES);
  } catch (error) {
    return { ok: false, reason: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  const read = parseArchive(bytes, path);
  if (!read.ok) return read;
  const problems = writtenShapeProblems(read.har);
  if (problems.length > 0) return { ok: false, reason: `${path}: not a HAR 1.2 archive of this harness: ${problems.slice(0, 3).join('; ')}` };
  return read;
}

/**
 * Runs the certification the archive records, of `scenarios`' legs, against a replay host serving
 * it, for `deadlineMs` at most (REPLAY_DEADLINE_MS, or the auditor's bound).
 */
export async function replayCertification(
  har: Har,
  scenarios: Scenario[],
  names: SettingNames = DOMAIN_NAMES,
  deadlineMs = REPLAY_DEADLINE_MS,
): Promise<ReplayRun> {
  const settings = har.log._certification;
  const host = await startReplayHost(har, REPEAT_WAIT_MS, deadlineMs);
  const redactor = new Redactor([host.tenants.a.apiKey, host.tenants.b.apiKey]);
  // The replay's deadline interrupts the legs as the run deadline does (lib/ledger/deadlines.ts),
  // then stops the host, so that no request is held past it, the work before the legs (discovery,
  // the key check, the seeding) included.
  const stopper = new AbortController();
  let stopped: string | undefined;
  const timer = setTimeout(() => {
    stopped = `the replay's deadline of ${seconds(deadlineMs)} passed (a replay runs no longer, whatever the archive records; ${names.replayDeadline} sets it)`;
    stopper.abort();
    host.stop();
  }, deadlineMs);
  try {
    const outcome = await certifyTarget({
      host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey, ...(settings.tenantB ? { tenantBApiKey: host.tenants.b.apiKey } : {}) },
      requireBehavior: settings.requireBehavior,
      names,
      deadlines: { requestTimeoutMs: settings.requestTimeoutMs },
      caps: { maxEvents: settings.maxEvents, maxResponseBytes: settings.maxResponseBytes },
      seed: settings.seed,
      ...(settings.generated === undefined ? {} : { generated: settings.generated }),
      ...(settings.replaySuite === undefined ? {} : { replaySuite: settings.replaySuite }),
      scenarios,
      ...(settings.filter === undefined ? {} : { filter: readFilter(settings.filter) }),
      concurrency: settings.concurrency,
      // Bounded as the run bounded them: an archive that records no leg deadline (`run` always
      // records one) was made with unbounded legs, and wrapped ones do not reproduce its rows; at
      // the deadline its legs meet the stopped host instead, every request lost at once.
      bound: (legs) =>
        settings.legDeadlineMs === undefined
          ? legs
          : withDeadlines(legs, settings.legDeadlineMs, { signal: stopper.signal, reason: () => stopped ?? 'not interrupted' }, names),
      checkKeys: settings.checkKeys,
      virtualWaits: host.virtualWaits,
    });
    const asked = {
      misses: host.misses(),
      unasked: host.unasked(),
      repeats: host.repeats(),
      refused: host.refused(),
      ...(stopped === undefined ? {} : { stopped }),
    };
    if (!outcome.ok) return { ok: false, reason: outcome.reason, rows: [], ...asked };
    return {
      ok: true,
      rows: redactor.value(outcome.rows),
      ...asked,
      discovery: redactor.value(outcome.target.discovery),
    };
  } finally {
    clearTimeout(timer);
    await host.close();
  }
}

/** A detail as a row difference shows it: quoted, and cut short. */
function shown(detail: string | undefined): string {
  if (detail === undefined) return 'absent';
  return JSON.stringify(detail.length > 400 ? `${detail.slice(0, 400)}…` : detail);
}

/** Each row that moved between the bundle and the replay, in one line. */
export function rowDifferences(recorded: readonly LedgerRow[], replayed: readonly LedgerRow[]): string[] {
  // Both as the bundle publishes them (witness.ts `bundleRow`): the notes it cannot carry are the eval certificate's.
  const before = new Map(sortedProjectedRows(recorded.map(bundleRow)).map((row) => [row.id, row]));
  const after = new Map(sortedProjectedRows(replayed.map(bundleRow)).map((row) => [row.id, row]));
  const lines: string[] = [];
  for (const [id, row] of before) {
    const again = after.get(id);
    if (again === undefined) {
      lines.push(`row ${id}: ${row.result} in the bundle, absent from the replay`);
      continue;
    }
    const moved: string[] = [];
    if (again.result !== row.result) moved.push(`disposition ${row.result} → ${again.result}`);
    if (again.assertions !== row.assertions) moved.push(`assertions ${String(row.assertions)} → ${String(again.assertions)}`);
    if (again.detail !== row.detail) moved.push(`detail ${shown(row.detail)} → ${shown(again.detail)}`);
    if (!jsonDeepEqual(again.evidence, row.evidence)) moved.push('evidence differs');
    if (again.scenario !== row.scenario) moved.push(`scenario ${row.scenario} → ${again.scenario}`);
    if (moved.length > 0) lines.push(`row ${id}: ${moved.join('; ')}`);
  }
  for (const [id, row] of after) if (!before.has(id)) lines.push(`row ${id}: absent from the bundle, ${row.result} in the replay`);
  return lines;
}

/**
 * Whether the bundle's signed discovery digest is the document the replayed certification read
 * from the archive: the eval verdict is re-derived from that document (docs/auditing.md "Eval
 * profiles"), so a bundle whose discovery was edited after the run (a mode it failed dropped,
 * say) certifies what the archived host never advertised. Undefined when it is the same.
 */
export function discoveryDifference(bundle: Record<string, unknown>, read: Record<string, unknown>): string | undefined {
  const discovery = isJsonObject(bundle.discovery) ? bundle.discovery : {};
  let digest: string;
  try {
    digest = sha256Hex(canonicalJson(read));
  } catch (error) {
    return `the archived discovery document cannot be digested: ${(error as Error).message}`;
  }
  if (discovery.sha256 !== digest)
    return `the bundle's discovery.sha256 is ${String(discovery.sha256)}, but the discovery document the archive's host served digests to ${digest}`;
  return undefined;
}

/** How long the archive's filter may take to match every leg's id and title (microseconds, for any pattern `run` was given in earnest). */
export const FILTER_BOUND_MS = 2_000;

/** Tests the pattern against each text, on a worker, and posts how many it matched. */
const FILTER_WORKER = `const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.pattern);
parentPort.postMessage(workerData.texts.filter((text) => pattern.test(text)).length);`;

/**
 * Whether the filter the archive records (`log._certification.filter`, a regular expression, or
 * text when it is none) matches every leg's id and title within `boundMs`. The replay applies it
 * as `run` did, on the command's thread, where a regular expression cannot be interrupted: a
 * pattern that backtracks without end (`^(.*.*)*X$`) would hang `verify --replay` for ever. So it is
 * first run on a worker, ended at the bound.
 */
export async function filterSettles(filter: string, scenarios: readonly Scenario[], boundMs = FILTER_BOUND_MS): Promise<boolean> {
  if (readFilter(filter).kind !== 'regex') return true;
  const texts = scenarios.flatMap((scenario) => scenario.legs.flatMap((leg) => [leg.id, leg.title]));
  const worker = new Worker(FILTER_WORKER, { eval: true, workerData: { pattern: filter, texts } });
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), boundMs);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve(true);
      });
      worker.once('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  } finally {
    await worker.terminate();
  }
}

/** A raw Ed25519 public key as discovery `signingKeys` publish it: 43 base64url characters. */
const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

export interface ReplayOptions {
  replay: string;
  hostKey?: string;
  /** The legs to run again, loaded by the command only once the inputs are read. */
  loadScenarios: () => Promise<Scenario[]>;
  /** How the user sets the settings the messages and the replayed rows name (lib/setting-names.ts). */
  names?: SettingNames;
  /** The replay's deadline: REPLAY_DEADLINE_MS, or the auditor's bound. */
  deadlineMs?: number;
}

/** The `verify --replay` command: 0 reproduced and bound, 1 a row moved or the binding fails, 2 an input problem, 3 not a bundle. */
export async function replayCommand(bundlePath: string, options: ReplayOptions, io: Io): Promise<number> {
  const names = options.names ?? DOMAIN_NAMES;
  const file = readBundleFile(bundlePath);
  if (!file.ok) return notABundle(io, file.reason);
  const archive = readArchiveFile(options.replay);
  if (!archive.ok) return cannotStart(io, archive.reason);
  const scenarios = await options.loadScenarios();
  const { filter } = archive.har.log._certification;
  if (filter !== undefined && !(await filterSettles(filter, scenarios)))
    return cannotStart(
      io,
      `${options.replay}: its filter ${JSON.stringify(filter)} (log._certification.filter) does not match the legs' ids and titles within ${FILTER_BOUND_MS / 1000} s: a regular expression that backtracks without end is not replayed`,
    );
  let bindingValue: unknown;
  const sigPath = bindingPath(options.replay);
  try {
    bindingValue = JSON.parse(readInputText(sigPath, MAX_DOCUMENT_BYTES));
  } catch (error) {
    return cannotStart(io, `cannot read the archive's binding ${sigPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let publicKey: ReturnType<typeof ed25519PublicKey> | undefined;
  if (options.hostKey !== undefined && RAW_KEY.test(options.hostKey)) {
    // The raw base64url key discovery `signingKeys` publish, as `verify --host-key` takes it.
    if (decodeCanonicalBase64url(options.hostKey, 32) === undefined) return cannotStart(io, `${names.hostKey}: not 32 bytes of canonical base64url`);
    publicKey = ed25519PublicKeyFromRaw(options.hostKey);
  } else if (options.hostKey !== undefined) {
    const key = readPublicKeyFile(options.hostKey);
    if (!key.ok) return cannotStart(io, `${names.hostKey}: ${key.reason}`);
    publicKey = ed25519PublicKey(key.pem);
  }
  let failed = false;
  const binding = checkBinding(bindingValue, archive.bytes, file.bundle, publicKey);
  for (const problem of binding.problems) io.out(`binding: ${problem}\n`);
  failed ||= binding.problems.length > 0;
  io.out(
    binding.problems.length > 0
      ? 'binding: broken: this archive is not bound to this bundle\n'
      : `binding: holds (the archive and the bundle's digests match${binding.signatureChecked ? ', and its signature holds under the host key' : `; its signature was not checked: no host key was given (${names.hostKey})`})\n`,
  );

  const started = performance.now();
  const deadlineMs = options.deadlineMs ?? REPLAY_DEADLINE_MS;
  const replay = await replayCertification(archive.har, scenarios, names, deadlineMs);
  const took = ((performance.now() - started) / 1000).toFixed(1);
  for (const miss of replay.misses) io.out(`replay: the archive holds no answer to ${miss}\n`);
  // Not a failure by itself: a row that moved, or a miss, says what went wrong; this says where.
  if (replay.repeats.length > 0)
    io.out(`note: ${replay.repeats.length} request(s) asked more often than archived, answered again as last time, the first: ${replay.repeats[0]}\n`);
  // Refused, not held for the archive's time: whether a row moved for it is the rows' to say.
  if (replay.refused.length > 0)
    io.out(`replay: ${replay.refused.length} request(s) asked more often than archived refused at once, the first: ${replay.refused[0]}\n`);
  if (replay.unasked.length > 0) io.out(`note: ${replay.unasked.length} archived exchange(s) no request asked for, the first: ${replay.unasked[0]}\n`);
  // Never a pass: the legs not done by then are blocked, and so named below as rows that moved.
  if (replay.stopped !== undefined) io.out(`replay: stopped: ${replay.stopped}; every leg not done by then is blocked\n`);
  if (!replay.ok) {
    io.out(`replay: the certification could not run against the archive: ${replay.reason}\n`);
    return 1;
  }
  const recorded = Array.isArray((file.bundle.results as { requirements?: unknown } | undefined)?.requirements)
    ? ((file.bundle.results as { requirements: LedgerRow[] }).requirements ?? [])
    : [];
  const differences = rowDifferences(recorded, replay.rows);
  const discoveryMoved = replay.discovery === undefined ? undefined : discoveryDifference(file.bundle, replay.discovery);
  if (discoveryMoved !== undefined) io.out(`discovery: ${discoveryMoved}\n`);
  for (const line of differences) io.out(`${line}\n`);
  // The digest's preimage takes the bundle's own relaxations and deployment when it declares them
  // (RFC 0216 §E.14, as verify recomputes it): the replay reproduces the rows, not those.
  const host = isJsonObject(file.bundle.host) ? file.bundle.host : {};
  const digest = witnessDigest(replay.rows.map(bundleRow), Array.isArray(host.relaxations) ? host.relaxations : undefined, host.deployment);
  const digestHolds = digest === file.bundle.witnessSha256;
  if (!digestHolds) io.out(`witness: the replay's witnessSha256 is ${digest}, the bundle's ${String(file.bundle.witnessSha256)}\n`);
  const reproduced = differences.length === 0 && digestHolds && replay.misses.length === 0 && discoveryMoved === undefined && replay.stopped === undefined;
  failed ||= !reproduced;
  io.out(
    reproduced
      ? `replay: reproduced: all ${replay.rows.length} rows, their dispositions and the witness digest, from ${archive.har.log.entries.length} archived exchanges in ${took} s\n`
      : `replay: not reproduced: ${differences.length} row(s) moved, ${replay.misses.length} request(s) the archive does not hold${digestHolds ? '' : ', the witness digest differs'}${discoveryMoved === undefined ? '' : ', the discovery document differs'}${replay.stopped === undefined ? '' : `, stopped at the replay's deadline of ${seconds(deadlineMs)}`}\n`,
  );
  return failed ? 1 : 0;
}
