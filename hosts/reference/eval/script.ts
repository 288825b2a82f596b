// The scripted agent's input (CONTRACT §3): reading it, and the script of one trial.

import { cloneJson, isPlainObject } from './json.ts';
import { schemaErrors } from './strict.ts';
import type { Script, TrialScript } from './types.ts';

export type ScriptReading = { ok: true; script: Script } | { ok: false; errors: string[] };

/** A task input is a script when it validates against scripted-agent-input.schema.json. */
export function readScript(input: unknown): ScriptReading {
  const errors = schemaErrors('scripted-agent-input', input);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, script: input as Script };
}

/**
 * One member of trial `trialIndex`'s script: the member of `byTrial["<index>"]` when it has one,
 * else the script's. The suite's own value, to read and never to change.
 */
export function trialMember<K extends keyof TrialScript>(script: Script, trialIndex: number, member: K): TrialScript[K] | undefined {
  const override = script.byTrial?.[String(trialIndex)] ?? {};
  return isPlainObject(override) && Object.hasOwn(override, member) ? override[member] : script[member];
}

/**
 * The script of trial `trialIndex` (trialMember of each member). A deep copy, so nothing a trial
 * does can reach the suite or another trial.
 */
export function trialScript(script: Script, trialIndex: number): TrialScript {
  return cloneJson({
    steps: trialMember(script, trialIndex, 'steps') ?? [],
    output: trialMember(script, trialIndex, 'output') ?? null,
    usage: trialMember(script, trialIndex, 'usage') ?? [],
  });
}
