// Known-bad hosts of RFC 0244 §D (fixtures) and §B, §C (efficiency and cost): each entry one named
// defect in how the host serves fixtures, counts misses, or counts calls, tokens and cost.

import Fraction from 'fraction.js';
import { argsSatisfied } from '../../../reference/eval/json.ts';
import { entryMatches, firstUnconsumedWhere } from '../../../reference/eval/tools.ts';
import { type KnownBadHost, REF, engine } from '../build.ts';

/** A tool name without its namespace: what follows its last ':'. */
const baseName = (tool: string): string => tool.slice(tool.lastIndexOf(':') + 1);

export const FIXTURES_AND_COST: KnownBadHost[] = [
  {
    name: 'fixture-last-match-served',
    defect: 'a call is served the last matching unconsumed entry instead of the first',
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: (entries, consumed, toolName, inputs) => {
        for (let i = entries.length - 1; i >= 0; i--) if (!consumed.has(i) && entryMatches(entries[i]!, toolName, inputs)) return i;
        return undefined;
      },
    }),
  },
  {
    name: 'fixture-entries-not-consumed',
    defect: 'a served entry is not consumed, so it answers every later matching call',
    clause: 'RFC 0244 §D',
    ...engine({ selectFixture: (entries, _consumed, toolName, inputs) => REF.selectFixture(entries, new Set(), toolName, inputs) }),
  },
  {
    name: 'fixture-miss-goes-live',
    defect: 'a miss under onMiss "fail" falls through to the live tool',
    clause: 'RFC 0244 §D',
    ...engine({ answerMiss: (_onMiss, callLive) => REF.answerMiss('live', callLive) }),
  },
  {
    name: 'fail-closed-keeps-output-score',
    defect: 'a fail-closed trial reports its output score instead of 0',
    clause: 'RFC 0244 §D',
    ...engine({ trialScore: (task, record, matched) => REF.trialScore(task, { ...record, failedClosed: false }, matched) }),
  },
  {
    name: 'live-miss-count-missing',
    defect: 'a task under onMiss "live" reports no fixtureMissCount',
    clause: 'RFC 0244 §D',
    ...engine({ reportedMissCount: (misses, onMiss) => (onMiss === 'live' ? undefined : REF.reportedMissCount(misses, onMiss)) }),
  },

  {
    name: 'live-miss-answered-without-tool',
    defect: 'a miss under onMiss "live" is answered with a canned empty outcome; the live tool is never called',
    clause: 'RFC 0244 §D (onMiss "live"), CONTRACT §4',
    ...engine({
      answerMiss: (onMiss, callLive) => (onMiss === 'live' ? { status: 'ok', outcome: {}, miss: true, failedClosed: false } : REF.answerMiss(onMiss, callLive)),
    }),
  },

  // --- Efficiency and cost (RFC 0244 §B, §C) ---
  {
    name: 'efficiency-gates-many-calls',
    defect: 'a task that makes more than ten tool calls fails',
    clause: 'RFC 0244 §C',
    ...engine({ efficiencyAllowsPass: (efficiency) => efficiency.toolCallCount <= 10 }),
  },
  {
    name: 'efficiency-skips-delegate-calls',
    defect: 'toolCallCount leaves out the calls a delegate makes inside the bracket',
    clause: 'RFC 0244 §C',
    ...engine({
      trialEfficiency: (record, targetAgentId) => ({
        ...REF.trialEfficiency(record, targetAgentId),
        toolCallCount: record.calls.filter((call) => call.agentId === targetAgentId).length,
      }),
    }),
  },
  {
    name: 'cost-first-trial-only',
    defect: "a task's cost (and totalCostUsd) counts only its first trial",
    clause: 'RFC 0244 §B',
    ...engine({ taskCostUsd: (costs) => costs[0] ?? new Fraction(0) }),
  },

  {
    name: 'efficiency-summed-over-trials',
    defect: "a task's efficiency is the sum over its trials instead of the mean (only a many-trial run shows it)",
    clause: 'RFC 0244 §C',
    ...engine({
      outgoingSummary: (summary, suite) => ({
        ...summary,
        tasks: (summary.tasks as Array<Record<string, unknown>>).map((task) => {
          const n = suite.trials?.count ?? 1;
          const efficiency = task.efficiency as Record<string, number> | undefined;
          return efficiency === undefined ? task : { ...task, efficiency: Object.fromEntries(Object.entries(efficiency).map(([k, v]) => [k, v * n])) };
        }),
      }),
    }),
  },
  {
    name: 'total-cost-skips-last-task',
    defect: "totalCostUsd leaves out the last task's cost (only a many-task run shows it)",
    clause: 'RFC 0244 §B, RFC 0081 §C',
    ...engine({
      outgoingSummary: (summary) => {
        const tasks = summary.tasks as Array<{ costUsd?: number }>;
        if (tasks.length < 2) return summary;
        return { ...summary, totalCostUsd: Math.max(0, Number(summary.totalCostUsd) - (tasks[tasks.length - 1]?.costUsd ?? 0)) };
      },
    }),
  },
  {
    name: 'fixture-tool-by-basename',
    defect: "fixture selection compares tool names after the namespace (the part after ':'), so crm:x answers billing:x",
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: firstUnconsumedWhere(
        (entry, toolName, inputs) => baseName(entry.tool) === baseName(toolName) && argsSatisfied(entry.args, entry.argsMatch, inputs),
      ),
    }),
  },
  {
    name: 'max-cost-threshold-exclusive',
    defect: 'the served summary fails a suite whose totalCostUsd exactly equals thresholds.maxCostUsd (the bound read as < rather than ≤)',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary, suite) =>
        suite.thresholds?.maxCostUsd !== undefined && summary.totalCostUsd === suite.thresholds.maxCostUsd ? { ...summary, passed: false } : summary,
    }),
  },
  {
    name: 'total-cost-left-out-when-priced',
    defect: "the summary never serves totalCostUsd, though the run's provider.usage events carry costs",
    clause: 'RFC 0081 §C (totalCostUsd summed from provider.usage), RFC 0244 §B (cost counts every trial)',
    ...engine({
      outgoingSummary: (summary) => {
        const { totalCostUsd: _total, ...rest } = summary;
        return rest;
      },
    }),
  },
];
