// Known-bad hosts of the wire (RFC 0081 §B–§D, RFC 0244 §E, §G, §H): each entry one named defect
// in what the host sends: events, summaries and refusals.

import { HttpError } from '../../reference/errors.ts';
import { type KnownBadHost, REF, engine, server, rewriting } from './build.ts';

export const WIRE: KnownBadHost[] = [
  {
    name: 'trajectory-block-names-tools',
    defect: "the summary's trajectory block lists the expected tool names (validateTraffic off: the schema refuses it)",
    clause: 'RFC 0244 §A, §H',
    ...engine(
      {
        outgoingSummary: (summary, suite) => ({
          ...summary,
          tasks: (summary.tasks as Array<Record<string, unknown>>).map((entry) => {
            const calls = suite.tasks.find((task) => task.taskId === entry.taskId)?.expected.trajectory?.calls;
            return calls === undefined ? entry : { ...entry, trajectory: { ...(entry.trajectory as object), tools: calls.map((call) => call.tool) } };
          }),
        }),
      },
      {},
      { validateTraffic: 'off' },
    ),
  },
  {
    name: 'score-label-prose',
    defect: 'eval.scored carries a prose scoreLabel (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0244 §E',
    ...engine(
      { outgoingEvents: rewriting('eval.scored', (p) => ({ ...p, scoreLabel: p.passed ? 'Looks good to me' : 'Needs another look' })) },
      {},
      { validateTraffic: 'off' },
    ),
  },
  {
    name: 'vendor-key-content',
    defect: "eval.scored carries the agent's output under an x- vendor key the payload schema admits",
    clause: 'RFC 0244 §H, RFC 0081 §C',
    ...engine({
      outgoingEvents: (emit) => {
        let output: unknown;
        return (type, payload) => {
          if (type === 'agent.decided') output = payload.decision;
          emit(type, type === 'eval.scored' ? { ...payload, 'x-debug-output': output } : payload);
        };
      },
    }),
  },
  {
    name: 'completed-before-last-scored',
    defect: 'eval.completed is emitted before the last eval.scored',
    clause: 'RFC 0081 §C',
    ...engine({
      // Each eval.scored waits for the next event; eval.completed overtakes the last one.
      outgoingEvents: (emit) => {
        let held: Record<string, unknown> | undefined;
        return (type, payload) => {
          if (type === 'eval.completed') emit(type, payload);
          if (held !== undefined) emit('eval.scored', held);
          held = type === 'eval.scored' ? payload : undefined;
          if (type !== 'eval.scored' && type !== 'eval.completed') emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'score-stderr-on-one-task',
    defect: 'trialStats carries scoreStderr 0 on a one-task suite, where it is omitted',
    clause: 'RFC 0244 §B',
    ...engine({
      outgoingSummary: (summary) =>
        summary.trialStats !== undefined && (summary.tasks as unknown[]).length < 2
          ? { ...summary, trialStats: { ...(summary.trialStats as object), scoreStderr: 0 } }
          : summary,
    }),
  },
  {
    name: 'scored-passed-on-output',
    defect: "each trial's eval.scored says passed whenever its score is 1, an unmatched trajectory too; the summary stays right",
    clause: 'RFC 0244 §A',
    ...engine({ outgoingEvents: rewriting('eval.scored', (payload) => (payload.score === 1 ? { ...payload, passed: true, scoreLabel: 'pass' } : payload)) }),
  },
  {
    name: 'started-task-count-off-by-one',
    defect: 'eval.started counts one task more than the suite has, on suites of two tasks or more',
    clause: 'RFC 0081 §C',
    ...engine({
      outgoingEvents: rewriting('eval.started', (payload) =>
        Number(payload.taskCount) >= 2 ? { ...payload, taskCount: Number(payload.taskCount) + 1 } : payload,
      ),
    }),
  },
  {
    name: 'outputs-without-summary',
    defect: 'run.completed carries empty outputs instead of the EvalSummary',
    clause: 'RFC 0081 §C',
    ...engine({ runOutputs: () => ({}) }),
  },
  {
    name: 'scored-before-own-decision',
    defect: "from the second trial on, eval.scored is emitted before that trial's agent.decided",
    clause: 'RFC 0081 §C',
    ...engine({
      // The first trial is left whole, so every eval.scored still follows some agent.decided.
      // The moved eval.scored falls inside its trial's bracket, which the CONTRACT §6 attribution
      // gives to the next eval.scored, so every leg judging a run of several trials fails too.
      outgoingEvents: (emit) => {
        let depth = 0;
        let trials = 0;
        let agentId: unknown;
        let held: Array<[string, Record<string, unknown>]> | undefined;
        return (type, payload) => {
          if (type === 'agent.invocation-started') {
            if (depth === 0) {
              trials += 1;
              agentId = payload.agentId;
            }
            depth += 1;
          }
          if (type === 'agent.invocation-completed') depth -= 1;
          if (held !== undefined) {
            if (type !== 'eval.scored') return void held.push([type, payload]);
            emit(type, payload);
            for (const [t, p] of held) emit(t, p);
            held = undefined;
            return;
          }
          if (type === 'agent.decided' && trials > 1 && depth === 1 && payload.agentId === agentId) held = [[type, payload]];
          else emit(type, payload);
        };
      },
    }),
  },
  {
    name: 'summary-version-is-engine-version',
    defect: "the summary's suiteVersion is the host engine's version, not the suite's",
    clause: 'RFC 0081 §C',
    ...engine({ outgoingSummary: (summary) => ({ ...summary, suiteVersion: '7.4.0' }) }),
  },
  {
    name: 'summary-liar',
    defect: 'the summary reports one passed task fewer than eval.completed and the events show',
    clause: 'RFC 0081 §C',
    ...engine({ outgoingSummary: (summary) => ({ ...summary, passedCount: Math.max(0, Number(summary.passedCount) - 1) }) }),
  },
  {
    name: 'unadvertised-mode-accepted',
    defect: 'a suite whose modes the host does not advertise is run instead of refused',
    clause: 'RFC 0081 §D',
    ...engine({ modeRefusal: () => undefined }),
  },
  {
    name: 'feature-refusal-names-suite-only',
    defect: 'the §G refusal names the suite (its id contains "trials"), not the field trials.count',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(suite, facets) && {
            status: 400,
            error: 'validation_error',
            message: `the suite ${suite.suiteId} uses a feature this host does not advertise`,
            details: { suiteId: suite.suiteId },
          },
      },
      { evalSuite: { trials: false } },
    ),
  },
  {
    name: 'unadvertised-feature-graded',
    defect: 'a suite using trials on a host without the trials facet is graded instead of refused',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: () => undefined }, { evalSuite: { trials: false } }),
  },
  {
    name: 'capability-refusal-not-implemented',
    defect: 'mode "eval" on a host without agents.evalSuite answers 501 not_implemented, not capability_not_provided',
    clause: 'RFC 0081 §B',
    ...server({ evalCapabilityRefusal: () => new HttpError(501, 'not_implemented', 'eval runs are not implemented by this host') }, { evalSuite: false }),
  },
];
