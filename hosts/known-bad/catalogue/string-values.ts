// Known-bad hosts of red-team round ten: read forms that change particular string values. Until the
// plain golden suite (conformance-eval-efficiency) echoed a composed non-ASCII string and an empty
// string, every string a run's log carried was ASCII and non-empty, so a form that normalized or
// dropped such strings served the same log as the others.

import type { RunEventDoc } from '../../reference/store.ts';
import { type KnownBadHost, server } from './build.ts';

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

export const STRING_VALUES: KnownBadHost[] = [
  {
    name: 'stream-strings-decomposed',
    defect: 'SSE frames carry every payload string in Unicode NFD (a composed é becomes e and a combining accent); a poll serves them as stored',
    clause: 'docs/wire.md §5.2, §5.3 (the stream and a poll serve the same events); CONTRACT §5 (echo answers {value} with its value)',
    ...server({ streamedEvent: (doc: RunEventDoc) => ({ ...doc, payload: mapStrings(doc.payload, (s) => s.normalize('NFD')) as Json }) }),
  },
  {
    name: 'poll-drops-empty-strings',
    defect: 'a poll serves every payload with its members whose value is the empty string left out',
    clause: 'docs/wire.md §5.3 (a poll serves the events the stream serves)',
    ...server({
      polledEvents: (body) => ({ ...body, events: (body.events as RunEventDoc[]).map((e) => ({ ...e, payload: withoutEmptyStrings(e.payload) as Json })) }),
    }),
  },
];
