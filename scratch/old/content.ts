// Content-freedom (RFC 0081 §C, RFC 0244 §H, invariant eval-summary-no-content-leak): eval.*
// payloads and the summary carry ids, enums, counts, scores and scalars only. Beyond the closed
// schemas, this looks for the suite's own content — tool names, arguments, outputs, golden values,
// rubric criteria — anywhere in what the host served.

import type { FixtureDocument } from '/work/wt/diet16/lib/fixtures.ts';
import type { Checks } from '/work/wt/diet16/lib/ledger/leg.ts';

/** Keys no eval payload or summary may carry (the official suite's EVAL_CONTENT_FORBIDDEN). */
export const CONTENT_KEYS = [
  'taskOutput',
  'output',
  'rubric',
  'completion',
  'prompt',
  'body',
  'secret',
  'credentials',
  'token',
  'apiKey',
  'tools',
  'calls',
  'args',
  'inputs',
  'explanation',
];

/** Every string of the suite that is content (length ≥ 4, so ids like "a" do not trip it). */
export function suiteContentStrings(doc: FixtureDocument): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, inContent: boolean, key?: string): void => {
    if (typeof value === 'string') {
      if (inContent && value.length >= 4) found.add(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item, inContent, key);
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        // Everything under a task's input, expected and fixtures is content, except the enums.
        const content = inContent || k === 'input' || k === 'expected' || k === 'fixtures';
        if (['kind', 'strategy', 'match', 'argsMatch', 'onMiss', 'passRule'].includes(k) && typeof v === 'string') continue;
        visit(v, content, k);
      }
    }
  };
  for (const task of doc.suite.tasks) visit(task, false);
  // Ids may travel; content that happens to spell an id cannot be told from the id.
  for (const id of [doc.suite.suiteId, ...doc.suite.tasks.map((task) => task.taskId)]) found.delete(id);
  return [...found];
}

function forbiddenKeys(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value))
    value.forEach((item, i) => {
      forbiddenKeys(item, `${path}[${i}]`, out);
    });
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (CONTENT_KEYS.includes(k)) out.push(`${path}.${k}`);
      forbiddenKeys(v, `${path}.${k}`, out);
    }
  }
  return out;
}

/** Members whose string values are ids, versions or closed enums: never content. */
const ID_OR_ENUM_KEYS = new Set([
  'suiteId',
  'suiteVersion',
  'taskId',
  'runId',
  'baselineRunId',
  'modes',
  'mode',
  'scoreLabel',
  'evaluatorType',
  'verdict',
  'method',
  'fixtureRuns',
]);

/** Every string value served, but those under an id or enum member. */
function servedStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) servedStrings(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!ID_OR_ENUM_KEYS.has(k)) servedStrings(v, out);
  }
  return out;
}

export function assertContentFree(check: Checks, value: unknown, doc: FixtureDocument, what: string): void {
  const keys = forbiddenKeys(value);
  check.ok(keys.length === 0, `${what} carries no content-bearing key`, keys);
  // Content is looked for in the served string values, not in ids and enums (a suite id may
  // well contain a word its outputs use) and not in member names (the keys check above).
  const served = servedStrings(value);
  const leaked = suiteContentStrings(doc).filter((s) => served.some((text) => text.includes(s)));
  check.ok(leaked.length === 0, `${what} echoes none of the suite's tool names, arguments or outputs`, leaked);
}
