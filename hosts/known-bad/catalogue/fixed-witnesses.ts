// Known-bad hosts that, before the fixed witnesses of issue 29 item 1, only a generated suite
// caught, and only under some seeds: each breaks one rule the generated suites compare, and each
// must now be killed with `--generated 0` by the seeded trajectory edges
// (scenarios/v2-eval-trajectory-trials/0244-a-args-match.ts, openwop.requirement.0244.trajectory-edges-seeded).

import type { MemoryScope } from '../../reference/eval/agent.ts';
import { maximumMatchingSize } from '../../reference/eval/trajectory.ts';
import { type KnownBadHost, engine } from './build.ts';

const SCRIPTED_AGENT = 'core.conformance.agents.scripted';

/**
 * Each task's trials start from what the previous task's last trial left, the task's memorySeed
 * written over it; trials of one task are isolated from each other, so the per-trial witnesses
 * pass, and only a task reading a key an earlier task wrote shows the leak. What is carried is
 * the suite's own (the previous task of its run, or the last task of its previous run), so runs
 * of other suites, in whatever order the legs run, never change what a suite's run reads.
 */
function memoryCarriedAcrossTasks(): MemoryScope {
  const carried = new Map<string, Map<string, unknown>>();
  return (seed, where) => {
    const start = new Map(carried.get(where.suiteId) ?? []);
    for (const entry of seed) start.set(entry.key, structuredClone(entry.value));
    return () => {
      const memory = new Map([...start].map(([key, value]) => [key, structuredClone(value)] as const));
      carried.set(where.suiteId, memory);
      return memory;
    };
  };
}

export const FIXED_WITNESSES: KnownBadHost[] = [
  {
    name: 'exact-unordered',
    defect: '`exact` reads as unordered: the same number of calls, each matched by a distinct one in any order',
    clause: 'RFC 0244 §A',
    ...engine({
      exactMode: (expected, observed, matches) =>
        expected.length === observed.length &&
        maximumMatchingSize(expected.length, observed.length, (e, o) => matches(expected[e]!, observed[o]!)) === expected.length,
    }),
  },
  {
    name: 'subset-mode-by-tool-name',
    defect: "`subset` checks each observed call's tool name only: a call with the expected tool but other arguments still matches",
    clause: 'RFC 0244 §A',
    ...engine({ subsetMode: (expected, observed) => observed.every((call) => expected.some((wanted) => wanted.tool === call.toolName)) }),
  },
  {
    name: 'forbidden-own-calls-only',
    defect: "forbidden calls are counted among the agent's own calls only, even with includeDelegates: true",
    clause: 'RFC 0244 §A',
    ...engine({
      forbiddenCount: (observed, forbidden) => observed.filter((call) => call.agentId === SCRIPTED_AGENT && forbidden.includes(call.toolName)).length,
    }),
  },
  {
    name: 'memory-carried-across-tasks',
    defect: "the agent's memory is carried from one task to the next (each task's trials start from what the previous task left, the memorySeed over it)",
    clause: 'RFC 0244 §B, CONTRACT §3',
    ...engine({ memoryPerTrial: memoryCarriedAcrossTasks() }),
  },
  {
    name: 'delegate-own-memory',
    defect: "a delegate's steps run with a memory of their own, empty: they do not read what the agent wrote, nor the agent what they wrote",
    clause: "RFC 0244 §A, §B (delegates, memory; CONTRACT §3: a delegate shares the trial's memory)",
    ...engine({ delegateMemory: () => new Map() }),
  },
];
