// What the hand-written honest logs of the fixture corpus share: the tools the fixtures name, one
// call, echo or usage as test/support/event-log.ts takes it, and a log opened for a fixture's suite
// (eval.started as CONTRACT §3 has the reference host write it).

import { EventLog, type CallSpec, type UsageSpec } from './event-log.ts';
import { trialCount, type FixtureDoc } from './fixture-corpus.ts';

export const LOOKUP = 'conformance.crm:lookup-order';
export const NOTE = 'conformance.crm:add-note';
export const REFUND = 'conformance.billing:refund';
export const REFUND_ALL = 'conformance.billing:refund-all';
export const ECHO = 'conformance.eval:echo';
export const COUNTER = 'conformance.eval:counter';
export const HELPER = 'core.conformance.agents.scripted-helper';

export function call(tool: string, inputs: Record<string, unknown>, outcome: unknown): CallSpec {
  return { tool, inputs, outcome };
}

export function echo(value: unknown): CallSpec {
  return call(ECHO, { value }, { value });
}

export function usage(inputTokens: number, outputTokens: number, costUsd?: number): UsageSpec {
  return costUsd === undefined ? { inputTokens, outputTokens } : { inputTokens, outputTokens, costUsd };
}

export function open(doc: FixtureDoc, token: string, extra: { fixtureRuns?: Record<string, string>; baselineRunId?: string } = {}): EventLog {
  // The agent under test is the suite's target (CONTRACT §2: the scripted agent, or its helper id).
  return new EventLog({
    ...(doc.suite.targetAgentId === undefined ? {} : { agentId: doc.suite.targetAgentId }),
    token,
    suiteId: doc.suite.suiteId,
    suiteVersion: doc.suite.version,
    modes: doc.suite.modes,
    taskCount: doc.suite.tasks.length,
    trialCount: trialCount(doc.suite),
    ...extra,
  });
}
