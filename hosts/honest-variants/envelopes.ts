// Honest variants beside the envelope and agent-event checks (scenarios/support/served-facts/
// envelopes.ts, agents.ts): each a choice the text leaves the host, next to a known-bad host of
// hosts/known-bad/catalogue/envelopes.ts, so the check is shown to read the clause and not the
// reference host's habits.

import { OFFSET_TIMESTAMPS, TIMESTAMPS_SPELLED_BY_FORM } from '../../lib/ledger/served-facts.ts';
import { REFERENCE_BEHAVIOUR } from '../reference/eval/index.ts';
import type { RunEventDoc } from '../reference/store.ts';
import type { HonestVariant } from './catalogue.ts';

/** The same edit of every event, as an SSE frame and as a poll page carries it. */
function everyForm(edit: (doc: RunEventDoc) => RunEventDoc) {
  return {
    streamedEvent: edit,
    polledEvents: (body: Record<string, unknown>) => ({ ...body, events: (body.events as RunEventDoc[]).map(edit) }),
  };
}

/** The kind of the task whose trial is scored next: the engine asks judgeUsage just before it emits eval.scored. */
let scoringKind: unknown;

export const ENVELOPE_VARIANTS: HonestVariant[] = [
  {
    name: 'rubric-scored-by-judge',
    choice: 'a rubric trial\'s eval.scored says evaluatorType "llm_judge"; golden and trajectory trials say "deterministic"',
    clause: 'RFC 0244 §E (evaluatorType names the evaluator), RFC 0081 §D (rubric: a host-chosen judge)',
    shows: 'evaluatorType "llm_judge" on a rubric trial',
    options: {
      engineBehaviour: {
        judgeUsage: (task, trialIndex) => {
          scoringKind = task.expected?.kind;
          return REFERENCE_BEHAVIOUR.judgeUsage(task, trialIndex);
        },
        outgoingEvents: (emit) => (type, payload) =>
          emit(type, type === 'eval.scored' && scoringKind === 'rubric' ? { ...payload, evaluatorType: 'llm_judge' } : payload),
      },
    },
  },
  {
    name: 'event-timestamps-with-offset',
    choice: 'event timestamps carry the offset +00:00 instead of Z',
    clause: 'OpenWOP v2 RunEventDoc (timestamp: a date-time, RFC 3339; docs/wire.md §5.1)',
    shows: OFFSET_TIMESTAMPS,
    options: { hostBehaviour: everyForm((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/Z$/, '+00:00') })) },
  },
  {
    name: 'poll-timestamps-spelled-otherwise',
    choice: 'poll pages spell each event timestamp as Python isoformat does (six digits, +00:00); SSE frames spell it with three digits and Z',
    clause: 'OpenWOP v2 RunEventDoc (timestamp: a date-time, RFC 3339 §5.6: Z and +00:00 name UTC alike; docs/wire.md §5.1, §5.3)',
    shows: TIMESTAMPS_SPELLED_BY_FORM,
    options: {
      hostBehaviour: {
        polledEvents: (body: Record<string, unknown>) => ({
          ...body,
          events: (body.events as RunEventDoc[]).map((doc) => ({ ...doc, timestamp: doc.timestamp.replace(/\.(\d{3})Z$/, '.$1000+00:00') })),
        }),
      },
    },
  },
];
