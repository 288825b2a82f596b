// Schema vectors for the server-free legs: each accepted or refused value is one assertion.

import type { Checks } from '../../lib/ledger/leg.ts';
import type { SchemaName } from '../../lib/schemas/index.ts';
import { runValidator, vectorsOfLeg } from '../../lib/schemas/vectors.ts';
import { shortId } from '../../lib/traceability.ts';

type Validator = SchemaName | `event:${string}` | 'suite-with-rules';

/** The value validates. */
export function accepts(check: Checks, validator: Validator, value: unknown, what: string): void {
  const result = runValidator(validator, value);
  check.ok(result.ok, `${validator} accepts ${what}`, result.ok ? undefined : result.errors);
}

/** The value is refused. */
function refuses(check: Checks, validator: Validator, value: unknown, what: string): void {
  check.ok(!runValidator(validator, value).ok, `${validator} refuses ${what}`, value);
}

/**
 * Every vector of vectors/schemas/*.json that names the leg `id`, accepted or refused as the
 * vector says. The vectors are data that name a server-free leg by its one rule, the id's short
 * form `<rfc>.<slug>` (lib/ledger/scenario.ts on spelling).
 */
export function vectorChecks(check: Checks, id: string): void {
  for (const vector of vectorsOfLeg(shortId(id))) {
    if (vector.valid) accepts(check, vector.schema as Validator, vector.data, vector.description);
    else refuses(check, vector.schema as Validator, vector.data, vector.description);
  }
}
