// The honest variants (the latitude matrix): each is the reference host with one choice switched
// that the RFC text leaves to the host. The harness must certify every one of them clean: zero
// `executed-fail` and zero `blocked` rows, under `--require-behavior` too (test/latitude-matrix.test.ts).
// `choice` says what the host does differently and `clause` the text that allows it; CONTRACT §6
// records, for each, what the harness accepts.
//
// An engine choice is an `EngineBehaviour` twin or a facet value; a wire choice is made by the
// loopback proxy of ./wire.ts in front of the host.

import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../reference/eval/index.ts';
import { exactDecimal } from '../reference/eval/json.ts';
import { HttpError } from '../reference/errors.ts';
import type { ReferenceHostOptions } from '../reference/server.ts';
import { SEAM_VARIANTS } from './seams.ts';
import { LIMIT_AND_OPTIONAL_VARIANTS } from './limits-optional.ts';
import type { WireChoice } from './wire.ts';
import { CLASS_VARIANTS } from './classes.ts';
import { RETRIABLE_VARIANTS } from './retriable.ts';
import { REGRESSION_METHOD_VARIANTS } from './regression-methods.ts';
import { EVAL_EVENT_VARIANTS } from './eval-events.ts';
import { ADVERSARIAL_VARIANTS } from './adversarial.ts';
import { PROVENANCE_VARIANTS } from './provenance.ts';
import { WIRE_TEXT_VARIANTS } from './text.ts';
import { TENANT_VARIANTS } from './tenants.ts';
import { ENVELOPE_VARIANTS } from './envelopes.ts';
import { OPEN_READING_VARIANTS } from './open-readings.ts';
import { RECORDED_VARIANTS } from './recorded.ts';
import { ORDER_AND_SIGN_VARIANTS } from './order-and-sign.ts';
import { COST_VARIANTS } from './costs.ts';

export interface HonestVariant {
  /** kebab-case, unique. */
  name: string;
  /** One line: the choice this host makes that the reference host does not. */
  choice: string;
  /** The text that allows it, e.g. `RFC 0244 §B`. */
  clause: string;
  options: ReferenceHostOptions;
  wire?: WireChoice;
  /**
   * What a row shows when the harness met the choice: a text of some row's `evidence.latitude`,
   * or of an `inapplicable` row's reason. Proves the variant is not a no-op.
   */
  shows?: string;
  /** The wire proxy counts what it injects (retriable answers, ended streams): the run must have met some. */
  injects?: boolean;
}

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;

/** Every event leaves the engine through `rewrite`, which may hold, add or edit events. */
function events(rewrite: (emit: Emit) => Emit): ReferenceHostOptions {
  return { engineBehaviour: { outgoingEvents: (emit) => rewrite(REFERENCE_BEHAVIOUR.outgoingEvents(emit)) } };
}

/**
 * Holds the target agent's `agent.invocation-completed` until the trial's `eval.scored` went
 * out: each trial is scored after its `agent.decided`, before its bracket closes.
 */
const scoredInsideBracket = events((emit) => {
  let depth = 0;
  let held: Record<string, unknown> | undefined;
  return (type, payload) => {
    if (type === 'agent.invocation-started') depth++;
    if (type === 'agent.invocation-completed' && --depth === 0) {
      held = payload;
      return;
    }
    emit(type, payload);
    if (type === 'eval.scored' && held !== undefined) {
      emit('agent.invocation-completed', held);
      held = undefined;
    }
  };
});

const BASE_VARIANTS: HonestVariant[] = [
  {
    name: 'scored-before-bracket-closes',
    choice: "each trial's eval.scored comes after its agent.decided but before its agent.invocation-completed",
    clause: 'RFC 0081 §C; RFC 0244 §B (trial scheduling is host-internal)',
    shows: 'eval.scored before its trial bracket closes (RFC 0081 §C)',
    options: scoredInsideBracket,
  },
  {
    name: 'max-trials-two',
    choice: 'trials.maxTrials is 2, and a suite asking for more trials is refused',
    clause: 'RFC 0244 §G',
    shows: "over the host's agents.evalSuite.trials.maxTrials 2",
    options: { evalSuite: { trials: { maxTrials: 2 } } },
  },
  {
    name: 'refusals-carry-request-id',
    choice: 'every error message carries a per-response request id; status and code stay the same',
    clause: 'RFC 0252 §C and its Conformance table (the same status and the same error code)',
    shows: 'source refusals with the same status and code, messages differing',
    options: {},
    wire: { requestIdInErrors: true },
  },
  {
    name: 'fixture-miss-other-code',
    choice: 'a fixture miss reaches the agent as a tool error with the code tool_fixture_missing',
    clause: 'RFC 0244 §D ("return a tool error")',
    shows: 'a fixture miss is the tool error tool_fixture_missing',
    options: events((emit) => (type, payload) => {
      const error = payload.error as { code?: unknown } | undefined;
      emit(
        type,
        type === 'agent.tool-returned' && error?.code === 'eval_fixture_miss' ? { ...payload, error: { ...error, code: 'tool_fixture_missing' } } : payload,
      );
    }),
  },
  {
    name: 'capability-refusal-501',
    choice: 'mode "eval" on a host without agents.evalSuite is 501 capability_not_provided',
    clause: 'RFC 0081 §B and its Examples (the v2 registry says 422)',
    shows: 'capability refusal 501 (RFC 0081 §B)',
    options: {
      evalSuite: false,
      hostBehaviour: {
        evalCapabilityRefusal: () =>
          new HttpError(501, 'capability_not_provided', 'this host does not provide agents.evalSuite', { capability: 'agents.evalSuite' }),
      },
    },
  },
  {
    name: 'score-delta-over-paired-tasks',
    choice: 'scoreDelta is the mean score change over the paired tasks only',
    clause: 'RFC 0244 §F (pairs by taskId; scoreDelta is not defined further)',
    shows: 'scoreDelta as the mean change over the paired tasks',
    options: {
      engineBehaviour: {
        scoreDelta: (_candidate, _baseline, pairs) =>
          pairs
            .reduce((sum, pair) => sum.add(exactDecimal(pair.candidate.score)).sub(exactDecimal(pair.baseline.score)), new Fraction(0))
            .div(Math.max(1, pairs.length)),
      },
    },
  },
  {
    name: 'recorded-fixtures-without-trajectory',
    choice: 'recordedFixtures and fixtureMatching advertised, trajectory not',
    clause: 'RFC 0252 §A (needs only fixtureMatching)',
    shows: 'the host does not advertise agents.evalSuite.trajectory',
    options: { evalSuite: { trajectory: false } },
  },
  {
    name: 'tool-inputs-redacted',
    choice: 'agent.tool-called carries argsHash instead of inputs',
    clause: 'RFC 0244 UQ 6; RFC 0252 §C (a call can carry argsHash alone)',
    shows: 'the host serves agent.tool-called without inputs',
    options: events((emit) => (type, payload) => {
      if (type !== 'agent.tool-called') return emit(type, payload);
      const { inputs, ...rest } = payload;
      emit(type, {
        ...rest,
        argsHash: `sha256:${Buffer.from(JSON.stringify(inputs ?? null))
          .toString('base64url')
          .slice(0, 43)}`,
      });
    }),
  },
  {
    name: 'judge-usage-outside-bracket',
    choice: "a judge's provider.usage follows every trial's bracket, and its cost is in the run's cost",
    clause: 'RFC 0081 UQ 5; RFC 0244 §C (judge calls are not efficiency)',
    shows: 'judge provider.usage outside the agent bracket (RFC 0081 UQ 5)',
    options: { engineBehaviour: { judgeUsage: () => ({ inputTokens: 50, outputTokens: 5, costUsd: 0.0005 }) } },
  },
  {
    name: 'unknown-event-types',
    choice: 'vendor event types are interleaved with the eval run events',
    clause: 'OpenWOP v2 events (a consumer MUST NOT throw on an unknown type)',
    options: events((emit) => (type, payload) => {
      emit(type, payload);
      if (type.startsWith('agent.') || type.startsWith('eval.')) emit('acme.trace-note', { after: type });
    }),
  },
  {
    name: 'vendor-keys-on-eval-payloads',
    choice: 'every eval.* payload carries x- vendor keys with no suite content',
    clause: 'OpenWOP v2 event payloads (vendor keys are admitted and carried opaquely)',
    options: events(
      (emit) => (type, payload) => emit(type, type.startsWith('eval.') ? { ...payload, 'x-acme-shard': 7, 'x-acme-region': 'eu-west' } : payload),
    ),
  },
  {
    name: 'summary-not-ready-at-once',
    choice: 'eval-summary answers 409 run_state_conflict twice before 200',
    clause: 'RFC 0081 §C (the summary is served for a terminal eval run)',
    options: {},
    wire: { summaryNotReadyTimes: 2 },
  },
  {
    name: 'sse-comments-and-heartbeats',
    choice: 'SSE streams carry comment lines and heartbeat comments between frames',
    clause: 'OpenWOP v2 SSE (keep-alives), the SSE format (comment lines)',
    options: {},
    wire: { sseComments: true },
  },
  {
    name: 'newer-minor-version',
    choice: 'every response carries OpenWOP-Version 2.3',
    clause: 'OpenWOP v2 version header (<major>.<minor>)',
    options: {},
    wire: { responseVersion: '2.3' },
  },
  {
    name: 'updates-stream-only',
    choice: 'the SSE stream serves the updates mode only; debug is 400 unsupported_stream_mode, events are polled',
    clause: 'OpenWOP v2 SSE (a mode the host has not implemented is 400 unsupported_stream_mode)',
    shows: 'events read by polling',
    options: {},
    wire: { noDebugStream: true },
  },
  {
    name: 'regression-method-paired-bootstrap',
    choice: 'the regression verdict is a paired-bootstrap call: any net rise is improved, any net fall regressed',
    clause: "RFC 0244 §F and UQ 5 (the method is the host's; only pairing, counts and identical runs are fixed)",
    shows: 'regression method paired-bootstrap',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'paired-bootstrap', alpha: 0.1 },
        regressionVerdict: (up, down) => (up + down === 0 ? 'unchanged' : up > down ? 'improved' : down > up ? 'regressed' : 'inconclusive'),
      },
    },
  },
  ...CLASS_VARIANTS,
  ...SEAM_VARIANTS,
  ...RETRIABLE_VARIANTS,
  ...WIRE_TEXT_VARIANTS,
  ...TENANT_VARIANTS,
  ...ENVELOPE_VARIANTS,
  ...OPEN_READING_VARIANTS,
];

/** Every hand-written honest variant. */
export const HONEST_VARIANTS: HonestVariant[] = [
  ...BASE_VARIANTS,
  ...LIMIT_AND_OPTIONAL_VARIANTS,
  ...REGRESSION_METHOD_VARIANTS,
  ...EVAL_EVENT_VARIANTS,
  ...ADVERSARIAL_VARIANTS,
  ...PROVENANCE_VARIANTS,
  ...RECORDED_VARIANTS,
  ...ORDER_AND_SIGN_VARIANTS,
  ...COST_VARIANTS,
];
