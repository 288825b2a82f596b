// Served facts that read a clause as a class, not one instance of it (issue 18 item 4): whatever
// the fixture, the event log and the summary of every observed eval run are held to
//   - content freedom of every eval.* string, labels included, compared as slugs with the suite's
//     content and the agent's answers (RFC 0244 §E, §H): a label that is a slug of an answer is
//     content, whatever pattern it fits;
//   - eval.started before the first task event, not only before eval.scored (RFC 0081 §C);
//   - one invocationId per bracket: each trial its own child invocation (RFC 0244 §B);
//   - the outcome of every bracket whose agent decided (RFC 0081 §B, CONTRACT §3);
//   - no suite args in a tool error's text that the run's own calls and answers did not carry
//     (RFC 0244 §H: suite args are never echoed onto the wire);
//   - fixtureMissCount on every fixtured task, a miss or none (CONTRACT §4).
// compareServedFacts (./index.ts) calls compareClassFacts with its own `fact`, so every message
// names the run and the clause, and each check is charged to its id under the rule it names here
// (the table is lib/ledger/served-facts.ts).

import type { RunEvent } from '../../../lib/client/index.ts';
import type { RunGrade } from '../../../lib/grader/index.ts';
import type { FixtureDocument } from '../../../lib/fixtures.ts';
import type { Checks } from '../../../lib/ledger/leg.ts';
import type { ServedRule } from '../../../lib/ledger/served-facts.ts';
import { suiteContentStrings } from '../content.ts';
import { isJsonObject, payloadOf } from '../../../lib/json-value.ts';

type Json = Record<string, unknown>;

/** Lower case, every run of other characters one hyphen: "Refund approved!" and "refund_approved" are both `refund-approved`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Members whose string values are ids a host must echo (suite and task ids, run ids): a suite id
 * may well spell a word its outputs use. Everything else served — labels, method, vendor keys'
 * values — is compared.
 */
const ECHOED_IDS = new Set(['suiteId', 'suiteVersion', 'taskId', 'runId', 'baselineRunId', 'fixtureRuns', 'modes', 'mode', 'evaluatorType', 'verdict']);

/**
 * Every string served, with its path, but those under an echoed id. By index, and a path is built
 * only for a member that is a string or holds members, not for every number and flag: this reads
 * every eval.* payload of every observed run.
 */
function servedStrings(value: unknown, path: string, out: Array<{ path: string; text: string }>): void {
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (mayHoldStrings(value[i])) servedStrings(value[i], `${path}[${i}]`, out);
  } else if (isJsonObject(value)) {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (!ECHOED_IDS.has(k) && mayHoldStrings(value[k])) servedStrings(value[k], `${path}.${k}`, out);
    }
  }
}

function mayHoldStrings(value: unknown): boolean {
  return typeof value === 'string' || (value !== null && typeof value === 'object');
}

/** The shortest slug compared: shorter content ("ok", "a") cannot be told from a word of a label. */
const MIN_CONTENT_SLUG = 4;
/** A served slug this long that a content slug contains is a cut of that content (a label is at most 64 characters). */
const MIN_CUT_SLUG = 8;

/**
 * Which served strings carry content: a served slug holding a content slug as whole words, or a
 * long served slug that opens a piece of one at a word (a label cut from an answer at 64 characters). Content is the suite's (its tasks'
 * inputs, expectations and fixtures) and every answer the agent gave in the log.
 */
export function contentInStrings(served: unknown, fixture: FixtureDocument, events: readonly RunEvent[]): string[] {
  const answers = events
    .filter((e) => e.type === 'agent.decided')
    .map((e) => payloadOf(e).decision)
    .filter((d) => d !== undefined)
    .map((d) => (typeof d === 'string' ? d : JSON.stringify(d)));
  const content = [...new Set([...suiteContentStrings(fixture), ...answers].map(slug))].filter((s) => s.length >= MIN_CONTENT_SLUG);
  const strings: Array<{ path: string; text: string }> = [];
  servedStrings(served, '$', strings);
  const out: string[] = [];
  for (const { path, text } of strings) {
    // Whole words only: "another" does not hold the content "other".
    const s = `-${slug(text)}-`;
    const hit = content.find((c) => s.includes(`-${c}-`) || (s.length - 2 >= MIN_CUT_SLUG && `-${c}-`.includes(s.slice(0, -1))));
    if (hit !== undefined) out.push(`${path} ${JSON.stringify(text)} (content ${JSON.stringify(hit)})`);
  }
  return out;
}

function stringLeaves(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out);
  else if (isJsonObject(value)) for (const item of Object.values(value)) stringLeaves(item, out);
  return out;
}

/**
 * The suite's args strings (expected calls' and fixture entries', RFC 0244 §H) that nothing the
 * run itself carried — no call's inputs, no answer — so a tool error quoting one quotes the suite.
 */
export function unsentSuiteArgs(fixture: FixtureDocument, events: readonly RunEvent[]): string[] {
  const args = new Set<string>();
  for (const task of fixture.suite.tasks) {
    const expected = (task.expected as Json | undefined)?.trajectory as { calls?: Array<{ args?: unknown }> } | undefined;
    for (const call of expected?.calls ?? []) stringLeaves(call.args, args);
    const entries = (task.fixtures as { toolResponses?: Array<{ args?: unknown }> } | undefined)?.toolResponses ?? [];
    for (const entry of entries) stringLeaves(entry.args, args);
  }
  const carried = new Set<string>();
  for (const event of events) {
    const p = payloadOf(event);
    if (event.type === 'agent.tool-called') stringLeaves(p.inputs, carried);
    if (event.type === 'agent.tool-returned') stringLeaves(p.outcome, carried);
  }
  return [...args].filter((text) => text.length >= MIN_CONTENT_SLUG && ![...carried].some((c) => c.includes(text)));
}

/** Types of the events of the trials themselves: eval.started must come before the first of them. */
function isTaskEvent(type: string): boolean {
  return type.startsWith('agent.') || type.startsWith('provider.') || type === 'eval.scored';
}

export interface ClassFactsRun {
  fixture: FixtureDocument;
  events: RunEvent[];
  summary: Json;
  grade: RunGrade;
  /** The task ids served from fixtures (live-shadow aside): their summary entries carry fixtureMissCount. */
  fixturedTaskIds: readonly string[];
}

/** The class checks; `fact` gives the checks charged to a fact's id, and the clause with the run's name. */
export function compareClassFacts(fact: (rule: ServedRule) => { check: Checks; clause: string }, run: ClassFactsRun): void {
  const { events, summary, fixture } = run;
  {
    const { check, clause } = fact('served-labels-content-free');
    const served = events.filter((e) => e.type.startsWith('eval.')).map((e) => ({ [e.type]: e.payload }));
    const leaked = contentInStrings([served, summary], fixture, events);
    check.ok(leaked.length === 0, `${clause} no eval.* or summary string, scoreLabel included, is the slug of suite content or an agent answer`, leaked);
  }
  {
    const { check, clause } = fact('served-started-first');
    const started = events.find((e) => e.type === 'eval.started');
    const first = events.find((e) => isTaskEvent(e.type));
    if (first !== undefined)
      check.ok(
        started !== undefined && started.sequence < first.sequence,
        `${clause} eval.started comes before the first task event (${first.type} at sequence ${first.sequence})`,
        { evalStarted: started?.sequence },
      );
  }
  {
    const { check, clause } = fact('served-invocations-distinct');
    const ids = events.filter((e) => e.type === 'agent.invocation-started').map((e) => payloadOf(e).invocationId);
    const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (ids.length > 0) check.ok(repeated.length === 0, `${clause} every agent.invocation-started opens a bracket of its own invocationId`, repeated);
  }
  {
    const { check, clause } = fact('served-bracket-outcome');
    // A bracket's agent decided when an agent.decided of its agentId falls inside it.
    const open: Array<{ invocationId: unknown; agentId: unknown; decided: boolean }> = [];
    for (const event of events) {
      const p = payloadOf(event);
      if (event.type === 'agent.invocation-started') open.push({ invocationId: p.invocationId, agentId: p.agentId, decided: false });
      else if (event.type === 'agent.decided') {
        const mine = [...open].reverse().find((b) => b.agentId === p.agentId);
        if (mine !== undefined) mine.decided = true;
      } else if (event.type === 'agent.invocation-completed') {
        const at = open.map((b) => b.invocationId).lastIndexOf(p.invocationId);
        if (at === -1) continue;
        const [bracket] = open.splice(at, 1);
        if (!bracket!.decided) continue;
        check.equal(p.outcome, 'completed', `${clause} the bracket ${String(p.invocationId)} whose agent decided closes with outcome "completed"`);
      }
    }
  }
  {
    const { check, clause } = fact('served-args-not-echoed');
    const unsent = unsentSuiteArgs(fixture, events);
    for (const event of events.filter((e) => e.type === 'agent.tool-returned' && payloadOf(e).error !== undefined)) {
      const text = JSON.stringify(payloadOf(event).error);
      const quoted = unsent.filter((arg) => text.includes(arg));
      check.ok(quoted.length === 0, `${clause} the tool error at sequence ${event.sequence} quotes no suite args`, quoted);
    }
  }
  {
    const { check, clause } = fact('served-miss-count-present');
    const served = new Map((Array.isArray(summary.tasks) ? summary.tasks.filter(isJsonObject) : []).map((t) => [t.taskId, t]));
    for (const taskId of run.fixturedTaskIds) {
      const entry = served.get(taskId);
      if (entry !== undefined)
        check.ok(entry.fixtureMissCount !== undefined, `${clause} task ${taskId}: a fixtured task's entry carries fixtureMissCount`, entry);
    }
  }
}
