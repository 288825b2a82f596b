// OpenWOP v2 operations the harness drives: discovery, eval-run creation, run state, cancel and
// the eval summary (docs/wire.md §1.2, §4, §5.4, §7). Each helper returns a discriminated union for
// whatever the host answers and lets a TransportError propagate, so a lost response is never
// mistaken for the host's answer.

import type { AuthChoice, Client, HttpResult } from './http.ts';
import { projectId } from './ids.ts';
import { describeAnswer, isJsonObject, readErrorCode, sleep, type JsonObject } from './util.ts';

export * from './events.ts';
export * from './seams.ts';
export { describeAnswer, isJsonObject, readErrorCode, sleep, type JsonObject } from './util.ts';

export interface CallOptions {
  auth?: AuthChoice;
}

// ---------------------------------------------------------------------------------------------
// Discovery

export type DiscoveryResult = { ok: true; document: JsonObject; etag?: string; status: number } | { ok: false; reason: string; result?: HttpResult };

/** `GET /.well-known/openwop`, unauthenticated, with `OpenWOP-Version: 2.0`. */
/** The discovery URL under a base URL, without any user or password the base URL carries. */
function discoveryUrl(baseUrl: string): string {
  try {
    const url = new URL(`${baseUrl}/.well-known/openwop`);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return '/.well-known/openwop';
  }
}

export async function discover(client: Client): Promise<DiscoveryResult> {
  const result = await client.request('GET', '/.well-known/openwop', { auth: 'none' });
  // The reason names the whole URL tried, so a base URL missing its path prefix shows at once.
  const tried = discoveryUrl(client.baseUrl);
  if (result.status !== 200) {
    return { ok: false, reason: `GET ${tried} answered ${describeAnswer(result)}`, result };
  }
  if (!isJsonObject(result.json)) {
    return { ok: false, reason: `GET ${tried} answered 200 without a JSON object`, result };
  }
  const etag = result.headers.etag;
  return etag === undefined ? { ok: true, document: result.json, status: result.status } : { ok: true, document: result.json, etag, status: result.status };
}

/**
 * The `agents.evalSuite` facet: read at the v2 root first, then under a `capabilities` wrapper
 * some hosts still nest their families in. Undefined when neither holds an object; presence is
 * the claim (no `supported` member at v2).
 */
export function evalSuiteFacet(document: unknown): JsonObject | undefined {
  if (!isJsonObject(document)) return undefined;
  const candidates: unknown[] = [document.agents];
  if (isJsonObject(document.capabilities)) candidates.push(document.capabilities.agents);
  for (const agents of candidates) {
    if (isJsonObject(agents) && isJsonObject(agents.evalSuite)) return agents.evalSuite;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Runs

export interface EvalRunRequest {
  evalSuiteRef: string;
  agentId: string;
  /** RFC 0252 §B: suite taskId → source runId. */
  fixtureRuns?: Record<string, string>;
  baselineRunId?: string;
}

export type CreateEvalRunResult = HttpResult & { runId?: string };

/** `POST /runs {mode: "eval", …}`. `runId` is set when the host answered 201 with a string runId. */
export async function createEvalRun(
  client: Client,
  request: EvalRunRequest,
  options: CallOptions & { idempotencyKey?: string } = {},
): Promise<CreateEvalRunResult> {
  const body: JsonObject = { mode: 'eval', evalSuiteRef: request.evalSuiteRef, agentId: request.agentId };
  if (request.fixtureRuns !== undefined) body.fixtureRuns = request.fixtureRuns;
  if (request.baselineRunId !== undefined) body.baselineRunId = request.baselineRunId;
  const result = await client.request('POST', '/runs', {
    body,
    auth: options.auth,
    headers: options.idempotencyKey === undefined ? undefined : { 'Idempotency-Key': options.idempotencyKey },
  });
  if (result.status === 201 && isJsonObject(result.json) && typeof result.json.runId === 'string') {
    return { ...result, runId: result.json.runId };
  }
  return result;
}

export type GetRunResult = { ok: true; run: JsonObject; etag?: string; result: HttpResult } | { ok: false; reason: string; result: HttpResult };

/** `GET /runs/{runId}`: the run snapshot (docs/wire.md §5.4). */
export async function getRun(client: Client, runId: string, options: CallOptions = {}): Promise<GetRunResult> {
  const path = `/runs/${projectId(runId)}`;
  const result = await client.request('GET', path, { auth: options.auth });
  if (result.status !== 200) return { ok: false, reason: `GET ${path} answered ${describeAnswer(result)}`, result };
  if (!isJsonObject(result.json)) return { ok: false, reason: `GET ${path} answered 200 without a JSON object`, result };
  const etag = result.headers.etag;
  return etag === undefined ? { ok: true, run: result.json, result } : { ok: true, run: result.json, etag, result };
}

export type CancelRunResult =
  | { kind: 'accepted'; status: string; result: HttpResult }
  | { kind: 'terminal'; result: HttpResult }
  | { kind: 'other'; reason: string; result: HttpResult };

/** `POST /runs/{runId}/cancel`: 200 `{runId, status}`, or 409 `run_terminal` for a finished run. */
export async function cancelRun(client: Client, runId: string, options: CallOptions & { reason?: string } = {}): Promise<CancelRunResult> {
  const path = `/runs/${projectId(runId)}/cancel`;
  const body = options.reason === undefined ? {} : { reason: options.reason };
  const result = await client.request('POST', path, { body, auth: options.auth });
  if (result.status === 200 && isJsonObject(result.json) && typeof result.json.status === 'string') {
    return { kind: 'accepted', status: result.json.status, result };
  }
  if (result.status === 409 && readErrorCode(result.json) === 'run_terminal') return { kind: 'terminal', result };
  return { kind: 'other', reason: `POST ${path} answered ${describeAnswer(result)}`, result };
}

// ---------------------------------------------------------------------------------------------
// The eval summary (docs/wire.md §7)

export type EvalSummaryResult =
  | { kind: 'ok'; summary: JsonObject; result: HttpResult }
  /** 409: the run is not terminal yet; `status` is the run status the host named, if any. */
  | { kind: 'running'; status: string | undefined; result: HttpResult }
  /** 404: not an eval run (or a host that does not advertise the operation). */
  | { kind: 'not-eval'; result: HttpResult }
  | { kind: 'other'; result: HttpResult };

/** `GET /runs/{runId}/eval-summary`, telling 200, 409 and 404 apart. */
export async function getEvalSummary(client: Client, runId: string, options: CallOptions = {}): Promise<EvalSummaryResult> {
  const result = await client.request('GET', `/runs/${projectId(runId)}/eval-summary`, { auth: options.auth });
  if (result.status === 200 && isJsonObject(result.json)) return { kind: 'ok', summary: result.json, result };
  if (result.status === 409) {
    const json = result.json;
    const details = isJsonObject(json) && isJsonObject(json.details) ? json.details : undefined;
    const status = typeof details?.runStatus === 'string' ? details.runStatus : undefined;
    return { kind: 'running', status, result };
  }
  if (result.status === 404) return { kind: 'not-eval', result };
  return { kind: 'other', result };
}

/** Most attempts `waitForSummary` makes, whatever the deadline. */
export const SUMMARY_MAX_ATTEMPTS = 60;

/**
 * Reads the summary, retrying while the host answers 409, with a short backoff (50 ms doubling to
 * 1 s), until `deadlineMs` has passed or `SUMMARY_MAX_ATTEMPTS` were made. Returns the last answer:
 * still `running` when the run never finished in time.
 */
export async function waitForSummary(client: Client, runId: string, deadlineMs: number, options: CallOptions = {}): Promise<EvalSummaryResult> {
  const deadline = Date.now() + deadlineMs;
  let delay = 50;
  for (let attempt = 1; ; attempt++) {
    const answer = await getEvalSummary(client, runId, options);
    if (answer.kind !== 'running' || attempt >= SUMMARY_MAX_ATTEMPTS) return answer;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return answer;
    await sleep(Math.min(delay, remaining));
    delay = Math.min(delay * 2, 1000);
  }
}
