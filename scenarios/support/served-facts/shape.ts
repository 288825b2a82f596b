// Served facts of the shape and content of everything served: every eval.* payload and the
// summary validate (RFC 0081 §C, RFC 0244 §E) and carry no suite content (RFC 0244 §H).

import { validate, validateEventPayload } from '../../../lib/schemas/index.ts';
import { assertContentFree } from '../content.ts';
import type { ServedContext } from './context.ts';

/** `served-shape` and `served-content-free`. */
export function compareShapeAndContent(ctx: ServedContext): void {
  const { run } = ctx;
  const evalEvents = run.events.filter((e) => e.type.startsWith('eval.'));
  {
    const { check, clause } = ctx.fact('served-shape');
    for (const event of evalEvents) {
      const result = validateEventPayload(event.type, event.payload);
      check.ok(result.ok, `${clause} the ${event.type} payload at sequence ${event.sequence} validates`, result.ok ? undefined : result.errors);
    }
    const valid = validate('eval-summary', run.summary);
    check.ok(valid.ok, `${clause} the summary validates`, valid.ok ? undefined : valid.errors);
  }
  {
    const { check, clause } = ctx.fact('served-content-free');
    assertContentFree(
      check,
      evalEvents.map((e) => e.payload),
      run.fixture,
      `${clause} the eval.* payloads`,
    );
    assertContentFree(check, run.summary, run.fixture, `${clause} the summary`);
  }
}
