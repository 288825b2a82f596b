// Honest variants of what the eval.* events may leave out: with `trials.count` = 1 the stream is
// RFC 0081's and `trialIndex` MAY be omitted (RFC 0244 §B). The generated variants never drop it
// (generated.ts CONDITIONAL: the reference host runs suites with trials too), so this one drops it
// exactly where the text allows: on every eval.scored of a run whose eval.started carries no
// trialCount (the reference host sends trialCount whenever count > 1).
// And where a judge's model calls stand: RFC 0081 UQ 5 and RFC 0244 §C say only that a judge's
// cost is in totalCostUsd and never in efficiency, so the scripted judge's provider.usage may stand
// inside the trial's bracket (after agent.decided) as well as after it, where the reference host
// puts it; the harness knows it by its provider (CONTRACT §3), not by where it stands.
// And when a run's trials are scored: CONTRACT §6 lets a host score a batch of trials after all
// their brackets closed, the batch naming tasks in the order they ran, so every eval.scored of the
// run may wait for its last bracket; each judge call still stands in or after its own trial's
// bracket (§3), and is that trial's, not the batch's first.

import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import type { HonestVariant } from './catalogue.ts';

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;

/** The reference stream, each trial's judge calls moved inside its bracket, before it closes. */
function judgeInsideBracket(emit: Emit): Emit {
  const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
  let closing: Record<string, unknown> | undefined;
  return (type, payload) => {
    if (closing !== undefined && !(type === 'provider.usage' && payload.provider === 'scripted-judge')) {
      next('agent.invocation-completed', closing);
      closing = undefined;
    }
    if (type === 'agent.invocation-completed') closing = payload;
    else next(type, payload);
  };
}

/** The stream `base` makes, every eval.scored held until the run's last bracket, then sent in order. */
function scoredAtRunEnd(base: (emit: Emit) => Emit): (emit: Emit) => Emit {
  return (emit) => {
    const next = base(emit);
    let held: Record<string, unknown>[] = [];
    return (type, payload) => {
      if (type === 'eval.scored') {
        held.push(payload);
        return;
      }
      if (type === 'eval.completed' || type === 'run.failed' || type === 'run.cancelled') {
        for (const scored of held) next('eval.scored', scored);
        held = [];
      }
      next(type, payload);
    };
  };
}

const JUDGE_AHEAD = 'scripted judge call(s) read as the trial whose bracket they stand in or follow';

export const EVAL_EVENT_VARIANTS: HonestVariant[] = [
  {
    name: 'scored-all-at-run-end',
    choice: "every eval.scored waits for the run's last bracket, then all come task by task; each judge call stays after its own trial's bracket",
    clause:
      "RFC 0244 §B (trial scheduling is the host's), RFC 0081 §C (eval.scored after its task's agent.decided), CONTRACT §6 Trial attribution, §3 (the judge call after its trial's bracket)",
    shows: JUDGE_AHEAD,
    options: { engineBehaviour: { outgoingEvents: scoredAtRunEnd((emit) => REFERENCE_BEHAVIOUR.outgoingEvents(emit)) } },
  },
  {
    name: 'scored-all-at-run-end-judge-inside',
    choice: "every eval.scored waits for the run's last bracket; each judge call inside its own trial's bracket",
    clause: "RFC 0244 §B (trial scheduling is the host's); CONTRACT §3 (a judge call inside its trial's bracket or after it), §6 Trial attribution",
    shows: JUDGE_AHEAD,
    options: { engineBehaviour: { outgoingEvents: scoredAtRunEnd(judgeInsideBracket) } },
  },
  {
    name: 'judge-usage-inside-bracket',
    choice: "the scripted judge's provider.usage stands inside the trial's bracket, after agent.decided and before the bracket closes",
    clause: 'RFC 0081 UQ 5 (a judge call is a provider.usage-emitting model call); RFC 0244 §C (judge calls are excluded from efficiency, wherever they stand)',
    shows: 'judge provider.usage inside the agent bracket',
    options: { engineBehaviour: { outgoingEvents: judgeInsideBracket } },
  },
  {
    name: 'trial-index-omitted-at-count-one',
    choice: 'with trials.count 1 (no eval.started.trialCount), eval.scored carries no trialIndex',
    clause: 'RFC 0244 §B ("With count = 1 the event stream is unchanged from RFC 0081, and trialIndex MAY be omitted")',
    shows: 'eval.scored without trialIndex at trials.count 1',
    options: {
      engineBehaviour: {
        outgoingEvents: (emit: Emit) => {
          const next = REFERENCE_BEHAVIOUR.outgoingEvents(emit);
          let single = false;
          return (type, payload) => {
            if (type === 'eval.started') single = payload.trialCount === undefined;
            if (type !== 'eval.scored' || !single) return next(type, payload);
            const { trialIndex: _omitted, ...rest } = payload;
            return next(type, rest);
          };
        },
      },
    },
  },
];
