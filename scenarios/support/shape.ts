// Schema vectors for the server-free legs: each accepted or refused value is one assertion.

import type { Checks } from '../../lib/ledger/leg.ts';
import { checkSuite, validate, validateEventPayload, type SchemaName } from '../../lib/schemas/index.ts';

type Validator = SchemaName | `event:${string}` | 'suite-with-rules';

function run(validator: Validator, value: unknown) {
  if (validator === 'suite-with-rules') return checkSuite(value);
  if (validator.startsWith('event:')) return validateEventPayload(validator.slice('event:'.length), value);
  return validate(validator as SchemaName, value);
}

/** The value validates. */
export function accepts(check: Checks, validator: Validator, value: unknown, what: string): void {
  const result = run(validator, value);
  check.ok(result.ok, `${validator} accepts ${what}`, result.ok ? undefined : result.errors);
}

/** The value is refused. */
export function refuses(check: Checks, validator: Validator, value: unknown, what: string): void {
  check.ok(!run(validator, value).ok, `${validator} refuses ${what}`, value);
}

/** A deep copy with `edit` applied, so each negative differs from a valid base by one thing. */
export function variant<T>(base: T, edit: (copy: T) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}
