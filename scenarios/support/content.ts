// Content-freedom (RFC 0081 §C, RFC 0244 §H, invariant eval-summary-no-content-leak): eval.*
// payloads and the summary carry ids, enums, counts, scores and scalars only. Beyond the closed
// schemas, this looks for the suite's own content — tool names, arguments, outputs, golden values,
// rubric criteria — anywhere in what the host served.

import type { FixtureDocument } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/ledger/leg.ts';

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

/**
 * The content strings of each fixture document, worked out once: every observed run is checked
 * for content three times or more (the served facts' eval payloads, summary and labels, and the
 * legs' own checks), each time against the same suite, and a fixture document does not change
 * once read (lib/ledger/fit.ts reads them so too). Held as long as the document is.
 */
const contentOf = new WeakMap<FixtureDocument, readonly string[]>();

/** Every string of the suite that is content (length ≥ 4, so ids like "a" do not trip it). */
export function suiteContentStrings(doc: FixtureDocument): readonly string[] {
  let content = contentOf.get(doc);
  if (content === undefined) {
    content = contentStringsOf(doc);
    contentOf.set(doc, content);
  }
  return content;
}

function contentStringsOf(doc: FixtureDocument): string[] {
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

/**
 * The paths of the content-bearing keys in `value`. The walk goes by index over each member list
 * and builds a path only for a member that can hold keys (an object or an array), not for every
 * scalar: it reads every payload of every observed run, and the for-of walk it replaces made an
 * iterator result, a pair and a path string for each member.
 */
function forbiddenKeys(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsMembers(value[i])) forbiddenKeys(value[i], `${path}[${i}]`, out);
  } else if (holdsMembers(value)) {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = (value as Record<string, unknown>)[k];
      if (CONTENT_KEYS.includes(k)) out.push(`${path}.${k}`);
      if (holdsMembers(v)) forbiddenKeys(v, `${path}.${k}`, out);
    }
  }
  return out;
}

function holdsMembers(value: unknown): value is object {
  return value !== null && typeof value === 'object';
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
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) servedStrings(value[i], out);
  else if (holdsMembers(value)) {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) if (!ID_OR_ENUM_KEYS.has(keys[i]!)) servedStrings((value as Record<string, unknown>)[keys[i]!], out);
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
