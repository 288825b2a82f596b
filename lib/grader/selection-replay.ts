// Fixture-selection replay (CONTRACT §4, §6; RFC 0244 §D, RFC 0252 §D): which calls of a trial
// were fixture misses. The wire says so with `eval_fixture_miss`; replaying selection against the
// entries a task is served from also catches the misses the wire cannot show (a miss answered
// live under `onMiss: "live"`, or a call served though no entry matches it).

import { attribute, type Bracket } from './attribution.ts';
import { argsMatch } from './json.ts';
import type { ArgsMatchMode, EvalTask, RunEvent } from './types.ts';

/** One fixture entry as selection reads it. */
export interface FixtureEntry {
  tool: string;
  args?: unknown;
  argsMatch?: ArgsMatchMode;
  /**
   * The entry answers with the fixture-miss code itself: derived from a source call that never ran
   * (RFC 0252 §D, "its error as response"), so a call it serves carries that code and is no miss.
   */
  servesMissCode?: boolean;
}

/**
 * The entries a fixtureRuns task is served from (CONTRACT §4, RFC 0252 §D): one per call of the
 * bracket's own agent (delegates excluded), in sequence order, matched exactly. Undefined when a
 * source call is redacted, so its args are unknown.
 */
export function entriesFromSource(events: readonly RunEvent[]): FixtureEntry[] | undefined {
  const { scored } = attribute(events, []);
  const calls = scored.flatMap((trial) => trial.brackets.flatMap((b) => b.toolCalls.filter((call) => call.agentId === b.agentId)));
  if (calls.some((call) => call.redacted)) return undefined;
  return calls.map((call) => ({ tool: call.toolName, args: call.inputs, argsMatch: 'exact' as const, ...(call.wireMiss ? { servesMissCode: true } : {}) }));
}

/** The suite's `toolResponses` entries as selection reads them (malformed entries never match). */
export function fixtureEntries(task: EvalTask): FixtureEntry[] | undefined {
  const list = task.fixtures?.toolResponses;
  if (!Array.isArray(list)) return task.fixtures ? [] : undefined;
  return list.map((e) => {
    if (e === null || typeof e !== 'object') return { tool: '' };
    const entry = e as { tool?: unknown; args?: unknown; argsMatch?: unknown };
    const out: FixtureEntry = { tool: typeof entry.tool === 'string' ? entry.tool : '' };
    if (entry.args !== undefined) out.args = entry.args;
    if (entry.argsMatch === 'ignore' || entry.argsMatch === 'exact' || entry.argsMatch === 'subset') out.argsMatch = entry.argsMatch;
    return out;
  });
}

/**
 * Fixture misses of one trial. A call is a miss when its `agent.tool-returned` says so
 * (`eval_fixture_miss`) or — when the suite's own `toolResponses` are known (`entries`) — when
 * replaying CONTRACT §4 selection over every call of the trial in log order (first unconsumed
 * entry with the same tool and matching args, cursor fresh per trial) finds no entry. The replay
 * is what makes a miss under `onMiss: "live"` countable: the live tool answers it, so the wire
 * carries no miss code. It also catches a host that serves a call no entry matches.
 */
export function countMisses(brackets: readonly Bracket[], entries: readonly FixtureEntry[] | undefined): number {
  const consumed = new Set<number>();
  let misses = 0;
  for (const b of brackets) {
    misses += b.unpairedMisses;
    for (const call of b.toolCalls) {
      let replayMiss = false;
      let servedMissCode = false;
      // A redacted call cannot be replayed (RFC 0244 UQ 6): only the wire can say it missed.
      if (entries && !call.redacted) {
        const index = entries.findIndex((e, i) => !consumed.has(i) && e.tool === call.toolName && argsMatch(e, call.inputs));
        if (index === -1) replayMiss = true;
        else {
          consumed.add(index);
          servedMissCode = entries[index]!.servesMissCode === true;
        }
      }
      if ((call.wireMiss && !servedMissCode) || replayMiss) misses++;
    }
  }
  return misses;
}
