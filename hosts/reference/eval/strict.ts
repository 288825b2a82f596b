// The reference host is strict about its own traffic: every event payload it emits and
// the summary it serves are validated against the project's schemas, and a mismatch is a host bug
// that throws, loudly, before anything leaves the engine.

import { validate, validateEventPayload } from '../../../lib/schemas/index.ts';
import type { SchemaName } from '../../../lib/schemas/index.ts';
import { FrozenVerdicts } from '../frozen.ts';

export class OwnTrafficInvalid extends Error {
  constructor(what: string, errors: string[]) {
    super(`reference host produced an invalid ${what}: ${errors.join('; ')}`);
    this.name = 'OwnTrafficInvalid';
  }
}

export function assertPayload(type: string, payload: Record<string, unknown>): void {
  const result = validateEventPayload(type, payload);
  if (!result.ok) throw new OwnTrafficInvalid(`${type} payload (run-event-payloads)`, result.errors);
}

export function assertDocument(name: SchemaName, value: unknown): void {
  const result = validate(name, value);
  if (!result.ok) throw new OwnTrafficInvalid(`${name} document`, result.errors);
}

/** The errors of deeply frozen values (the catalogue's suites, which every create of a suite reads). */
const verdicts = new FrozenVerdicts<readonly string[]>();

/** Schema errors as a list (empty when valid), for checks that refuse rather than throw. */
export function schemaErrors(name: SchemaName, value: unknown): string[] {
  let errors = verdicts.get(name, value);
  if (errors === undefined) {
    errors = errorsOf(name, value);
    verdicts.set(name, value, errors);
  }
  return [...errors];
}

function errorsOf(name: SchemaName, value: unknown): string[] {
  const result = validate(name, value);
  return result.ok ? [] : result.errors;
}
