// Known-bad hosts whose behaviour drifts between two runs of one suite (issue 29, item 6): each run
// taken alone is right, so a fixture run once never shows the defect; only the second run of a
// suite (scenarios/v2-eval-trajectory-trials/0244-d-second-run.ts) does. Each keys what it keeps
// by the suite, so runs of other suites, whatever order the legs run in, are untouched.

import type { MemoryScope } from '../../reference/eval/agent.ts';
import type { LiveToolCall } from '../../reference/eval/behaviour.ts';
import type { Suite } from '../../reference/eval/types.ts';
import type { ToolResult } from '../../reference/eval/port.ts';
import { type KnownBadHost, engine } from './build.ts';

/**
 * Each trial of a task starts from what the same trial of the same task left in the suite's last
 * run, the memorySeed written over it: trials and tasks of one run stay isolated.
 */
function memoryKeptAcrossRuns(): MemoryScope {
  const kept = new Map<string, Map<string, unknown>[]>();
  return (seed, where) => {
    const key = JSON.stringify([where.suiteId, where.taskId]);
    const earlier = kept.get(key) ?? [];
    const now: Map<string, unknown>[] = [];
    kept.set(key, now);
    return () => {
      const memory = new Map(earlier[now.length] ?? []);
      for (const entry of seed) memory.set(entry.key, structuredClone(entry.value));
      now.push(memory);
      return memory;
    };
  };
}

/**
 * The live answers of a suite's run, kept: a later run of the suite making the same call (the
 * same tool and inputs, the same how-many-th time) is answered from them and never reaches the tool.
 */
function liveAnswersCached(): (call: LiveToolCall, suite: Suite) => LiveToolCall {
  const cache = new Map<string, ToolResult>();
  return (call, suite) => {
    const seen = new Map<string, number>();
    return (toolName, inputs) => {
      const key = JSON.stringify([suite.suiteId, suite.version, toolName, inputs]);
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      const slot = `${key}#${occurrence}`;
      const kept = cache.get(slot);
      if (kept !== undefined) return structuredClone(kept);
      const result = call(toolName, inputs);
      cache.set(slot, structuredClone(result));
      return result;
    };
  };
}

export const SECOND_RUNS: KnownBadHost[] = [
  {
    name: 'memory-kept-across-runs',
    defect: "a task's trials start from the memory the same trial of the suite's previous run left, the memorySeed written over it",
    clause: 'RFC 0244 §B, CONTRACT §3',
    ...engine({ memoryPerTrial: memoryKeptAcrossRuns() }),
  },
  {
    name: 'live-answer-cached',
    defect: "a live tool call a suite's earlier run made is answered from that run's answer, never reaching the tool again",
    clause: 'RFC 0244 §D',
    ...engine({ liveTools: liveAnswersCached() }),
  },
];
