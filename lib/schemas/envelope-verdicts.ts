// The RunEventDoc envelope check (schemas/v2/run-event.schema.json), once per event read: the
// route step checks every event as it arrives (an SSE frame, lib/routes/frames.ts; a poll page,
// whose schema checks each of its events against the same envelope, lib/routes/answer.ts), and the
// served facts check the envelopes of every read form of the log again
// (scenarios/support/served-facts/envelopes.ts): the same objects, which the client hands on as
// parsed. An accepted event is marked with the schema set in force and frozen, so nothing can
// change what was judged: the envelope holds scalars and the payload's reference only (the
// payload, checked by type elsewhere, is not frozen). The mark lives on the event, not in a table,
// so it costs nothing past the event's own life (a table of a flood's events held memory,
// bench/RESULTS.md "Harness CPU (branch harness3)"). A refused event is not marked: its errors
// are worked out again where they are reported.

import { isJsonObject } from '../json-value.ts';
import { schemaGeneration, validate, type ValidationResult } from './index.ts';

/** The schema generation an event's envelope was accepted under (a symbol: no JSON member, nor listed by Object.keys). */
const ACCEPTED = Symbol('RunEventDoc envelope accepted');

/** The envelope check of `doc`, kept on it when it passes. */
export function checkEnvelope(doc: unknown): ValidationResult {
  if (isJsonObject(doc) && (doc as { [ACCEPTED]?: number })[ACCEPTED] === schemaGeneration()) return { ok: true };
  const result = validate('run-event', doc);
  if (result.ok) keepAccepted(doc);
  return result;
}

/** Marks `doc` accepted by the envelope schema (the caller checked it, e.g. within a poll page), and freezes it. */
export function keepAccepted(doc: unknown): void {
  if (!isJsonObject(doc) || Object.isFrozen(doc)) return;
  Object.defineProperty(doc, ACCEPTED, { value: schemaGeneration() });
  Object.freeze(doc);
}
