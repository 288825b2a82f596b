// Known-bad hosts of red-team round ten: defects gated on a value no fixed witness carried. Until the
// plain golden suite (conformance-eval-efficiency) echoed a composed non-ASCII string and an empty
// string, every string a run's log carried was ASCII and non-empty, so a read form that normalized
// or dropped such strings served the same log as the others; and until the seeded judge-weights
// suite held a rubric trial judged exactly its passScore, no trial's fractional score equalled it.

import type { RunEventDoc } from '../../reference/store.ts';
import Fraction from 'fraction.js';
import { type KnownBadHost, REF, engine, server } from './build.ts';

type Json = Record<string, unknown>;

function mapStrings(value: unknown, edit: (s: string) => string): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, edit));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, edit)]));
  return value;
}

function withoutEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => [k, withoutEmptyStrings(v)]),
    );
  }
  return value;
}

export const VALUE_GATED: KnownBadHost[] = [
  {
    name: 'stream-strings-decomposed',
    defect: 'SSE frames carry every payload string in Unicode NFD (a composed é becomes e and a combining accent); a poll serves them as stored',
    clause: "RFC 0081 §C (the run's events), docs/wire.md §5.2, §5.3 (the stream and a poll serve the same events), CONTRACT §5 (echo answers {value})",
    ...server({ streamedEvent: (doc: RunEventDoc) => ({ ...doc, payload: mapStrings(doc.payload, (s) => s.normalize('NFD')) as Json }) }),
  },
  {
    name: 'poll-drops-empty-strings',
    defect: 'a poll serves every payload with its members whose value is the empty string left out',
    clause: "RFC 0081 §C (the run's events), docs/wire.md §5.3 (a poll serves the events the stream serves)",
    ...server({
      polledEvents: (body) => ({ ...body, events: (body.events as RunEventDoc[]).map((e) => ({ ...e, payload: withoutEmptyStrings(e.payload) as Json })) }),
    }),
  },
  {
    name: 'gating-score-at-three-quarters-read-under',
    defect: 'a trial whose gating score is exactly 3/4 is graded at 0.74, so at passScore 0.75 it does not pass',
    clause: 'RFC 0244 §A (the gating score is the output score when the path matched), CONTRACT §6 (Trial: passes at a gating score of at least passScore)',
    ...engine({
      trialGatingScore: (score, matched, failedClosed, kind) => {
        const gating = REF.trialGatingScore(score, matched, failedClosed, kind);
        return gating.equals(new Fraction(3, 4)) ? new Fraction(74, 100) : gating;
      },
    }),
  },
];
