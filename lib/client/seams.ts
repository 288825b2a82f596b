// The conformance seams of CONTRACT.md §5, mounted under `/conformance/seams/…` by a host that
// advertises `conformance.seamsProfile: "openwop-conformance-seams-v2"`. A seam that is not
// mounted answers 404 (docs/wire.md §8), reported as `seam not mounted`.

import type { AuthChoice, Client, HttpResult } from './http.ts';
import { projectId } from './ids.ts';
import { describeAnswer, isJsonObject } from './util.ts';

export const SEAMS_PROFILE = 'openwop-conformance-seams-v2';
/**
 * `conformance.evalSeamsProfile`: the version of this harness's own seams (CONTRACT §5). Version 2
 * adds the per-run effect reading; version 3 the scripted agent's hold step and its release seam
 * (CONTRACT §3); version 4 a live counter call with another op answered as a tool error (CONTRACT
 * §5); a host without the member offers only the first seams. Each version holds the ones below it.
 */
export const EVAL_SEAMS_PROFILE = 'openwop-eval-conformance-seams-4';
/** The profile of a host with the hold step whose live tools are not held to answer an error. */
export const EVAL_SEAMS_PROFILE_HOLDS = 'openwop-eval-conformance-seams-3';
/** The profile of a host with the per-run reading but no hold step. */
export const EVAL_SEAMS_PROFILE_RUN_EFFECTS = 'openwop-eval-conformance-seams-2';
const EVAL_SEAMS_VERSION = /^openwop-eval-conformance-seams-([1-9][0-9]{0,5})$/;

function evalSeamsVersion(conformance: Record<string, unknown>): number {
  if (conformance.seamsProfile !== SEAMS_PROFILE || typeof conformance.evalSeamsProfile !== 'string') return 0;
  const version = EVAL_SEAMS_VERSION.exec(conformance.evalSeamsProfile);
  return version === null ? 0 : Number(version[1]);
}

/** Whether a discovery `conformance` record offers the per-run effect reading (version 2 or later). */
export function offersRunEffects(conformance: Record<string, unknown>): boolean {
  return evalSeamsVersion(conformance) >= 2;
}

/** Whether a discovery `conformance` record offers the hold step and its release (version 3 or later). */
export function offersHolds(conformance: Record<string, unknown>): boolean {
  return evalSeamsVersion(conformance) >= 3;
}

/**
 * Whether a discovery `conformance` record holds its live counter to answer a call with another op
 * than "inc" or "read" as a tool error, moving no count (version 4 or later, CONTRACT §5).
 */
export function offersLiveToolErrors(conformance: Record<string, unknown>): boolean {
  return evalSeamsVersion(conformance) >= 4;
}
export const SEAM_NOT_MOUNTED = 'seam not mounted';

export type SeamResult<T> = ({ ok: true } & T) | { ok: false; reason: string; result: HttpResult };

export interface SeamOptions {
  auth?: AuthChoice;
}

function refused(what: string, result: HttpResult): { ok: false; reason: string; result: HttpResult } {
  if (result.status === 404) return { ok: false, reason: SEAM_NOT_MOUNTED, result };
  return { ok: false, reason: `${what} answered ${describeAnswer(result)}`, result };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** `GET /conformance/seams/counter?key=K` → the counter's value, without moving it. */
export async function readCounter(client: Client, key: string, options: SeamOptions = {}): Promise<SeamResult<{ count: number; result: HttpResult }>> {
  const what = 'GET /conformance/seams/counter';
  const result = await client.request('GET', '/conformance/seams/counter', { query: { key }, auth: options.auth });
  if (result.status !== 200) return refused(what, result);
  const json = result.json;
  if (!isJsonObject(json) || json.key !== key || !isCount(json.count)) {
    return { ok: false, reason: `${what} answered 200 without {key: ${JSON.stringify(key)}, count: <integer ≥0>}`, result };
  }
  return { ok: true, count: json.count, result };
}

/** `GET /conformance/seams/effects` → live tool calls let through, by tool name. */
export async function readEffects(client: Client, options: SeamOptions = {}): Promise<SeamResult<{ effects: Record<string, number>; result: HttpResult }>> {
  const what = 'GET /conformance/seams/effects';
  const result = await client.request('GET', '/conformance/seams/effects', { auth: options.auth });
  if (result.status !== 200) return refused(what, result);
  const json = result.json;
  const effects = isJsonObject(json) ? json.effects : undefined;
  if (!isJsonObject(effects) || !Object.values(effects).every(isCount)) {
    return { ok: false, reason: `${what} answered 200 without {effects: {<toolName>: <integer ≥0>}}`, result };
  }
  return { ok: true, effects: effects as Record<string, number>, result };
}

/**
 * `GET /conformance/seams/runs/{runId}/effects` → the live tool calls the host let through for
 * that one run, by tool name (`{runId, effects}`).
 */
export async function readRunEffects(
  client: Client,
  runId: string,
  options: SeamOptions = {},
): Promise<SeamResult<{ effects: Record<string, number>; result: HttpResult }>> {
  const path = `/conformance/seams/runs/${projectId(runId)}/effects`;
  const what = `GET ${path}`;
  const result = await client.request('GET', path, { auth: options.auth });
  if (result.status !== 200) return refused(what, result);
  const json = result.json;
  const effects = isJsonObject(json) ? json.effects : undefined;
  if (!isJsonObject(json) || json.runId !== runId || !isJsonObject(effects) || !Object.values(effects).every(isCount)) {
    return { ok: false, reason: `${what} answered 200 without {runId: ${JSON.stringify(runId)}, effects: {<toolName>: <integer ≥0>}}`, result };
  }
  return { ok: true, effects: effects as Record<string, number>, result };
}

/** `PUT /conformance/seams/eval-suites/{fixtureId}` with the fixture document → 204. */
export async function seedEvalSuite(
  client: Client,
  fixtureDoc: { readonly id: string },
  options: SeamOptions = {},
): Promise<SeamResult<{ result: HttpResult }>> {
  const path = `/conformance/seams/eval-suites/${projectId(fixtureDoc.id)}`;
  const result = await client.request('PUT', path, { body: fixtureDoc, auth: options.auth });
  if (result.status !== 204) return refused(`PUT ${path}`, result);
  return { ok: true, result };
}

/** `POST /conformance/seams/holds/{key}/release` → 204: every hold on `key` passes, now and later (CONTRACT §3). */
export async function releaseHold(client: Client, key: string, options: SeamOptions = {}): Promise<SeamResult<{ result: HttpResult }>> {
  const path = `/conformance/seams/holds/${encodeURIComponent(key)}/release`;
  const result = await client.request('POST', path, { auth: options.auth });
  if (result.status !== 204) return refused(`POST ${path}`, result);
  return { ok: true, result };
}

/** `POST /conformance/seams/runs/{runId}/erase-tool-content` → 204. */
export async function eraseToolContent(client: Client, runId: string, options: SeamOptions = {}): Promise<SeamResult<{ result: HttpResult }>> {
  const path = `/conformance/seams/runs/${projectId(runId)}/erase-tool-content`;
  const result = await client.request('POST', path, { auth: options.auth });
  if (result.status !== 204) return refused(`POST ${path}`, result);
  return { ok: true, result };
}
