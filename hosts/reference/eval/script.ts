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
 * The script of trial `trialIndex`: each member of `byTrial["<index>"]` replaces the same member of
 * the script. A deep copy, so nothing a trial does can reach the suite or another trial.
 */
export function trialScript(script: Script, trialIndex: number): TrialScript {
  const override = script.byTrial?.[String(trialIndex)] ?? {};
  const pick = <K extends keyof TrialScript>(member: K): TrialScript[K] | undefined =>
    isPlainObject(override) && Object.hasOwn(override, member) ? override[member] : script[member];
  return cloneJson({
    steps: pick('steps') ?? [],
    output: pick('output') ?? null,
    usage: pick('usage') ?? [],
  });
}
