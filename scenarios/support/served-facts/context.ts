// What every family of served facts reads of one run (./index.ts builds it once per run).

import type { Checks } from '../../../lib/ledger/leg.ts';
import type { ServedRule } from '../../../lib/ledger/served-facts.ts';
import type { CompletedRun } from '../../../lib/ledger/observed-run.ts';

export type Json = Record<string, unknown>;

export interface ServedContext {
  run: CompletedRun;
  suite: Json & { tasks: Array<Json & { taskId: string }> };
  /** The suite's trials block, when it runs trials. */
  trialsBlock: Json | undefined;
  /** Trials per task (1 without a trials block). */
  count: number;
  /** The host served some agent.tool-called without inputs. */
  redacted: boolean;
  /** The reference grade is recomputable: nothing it needs was redacted (RFC 0244 UQ 6). */
  gradeKnown: boolean;
  /** The run cost more than the host's own maxCostUsdPerSuite. */
  overHostCeiling: boolean;
  /** The checks charged to `rule`'s id, switched to `rule`, and its clause naming the run. */
  fact(rule: ServedRule): { check: Checks; clause: string };
}

export { isJsonObject, payloadOf } from '../../../lib/json-value.ts';

export function within(actual: unknown, formula: number): boolean {
  return typeof actual === 'number' && Math.abs(actual - formula) <= 1e-9 * Math.max(1, Math.abs(formula));
}

/**
 * A task's or a trial's served cost: the cost of every trial, a judge's cost (`judgePart`) in or
 * out of it (RFC 0081 UQ 5 puts the judge's in totalCostUsd and fixes nothing finer).
 */
export function costs(value: unknown, withJudge: number, judgePart: number): boolean {
  return within(value, withJudge) || (judgePart > 0 && within(value, withJudge - judgePart));
}
