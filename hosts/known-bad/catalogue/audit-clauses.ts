// Known-bad hosts of the clauses the RFC audit found half-checked or omitted (issue 18 item 5):
// the golden strategies, the absent-argsMatch default, argument matching before redaction, suite
// args echoed in a miss's error. Each entry one named defect.

import Fraction from 'fraction.js';
import { REFERENCE_BEHAVIOUR, type EngineBehaviour } from '../../reference/eval/index.ts';
import { argsSatisfied, jsonEqual, stringForm, subsetMatches } from '../../reference/eval/json.ts';
import type { ReferenceHostOptions } from '../../reference/server.ts';
import { type KnownBadHost, REF, engine } from './build.ts';

type Emit = ReturnType<EngineBehaviour['outgoingEvents']>;
type TrialScore = EngineBehaviour['trialScore'];

/** The golden score with one strategy read another way; every other score as the reference's. */
function goldenRead(strategy: 'exact' | 'contains' | 'json-match', hit: (output: unknown, value: unknown) => boolean): TrialScore {
  return (task, record, matched) => {
    const match = task.expected.kind === 'golden' ? task.expected.match : undefined;
    if (record.failedClosed || match?.strategy !== strategy) return REF.trialScore(task, record, matched);
    return hit(record.output, match.value) ? new Fraction(1) : new Fraction(0);
  };
}

/** Every member of `value` is in `output`, recursively: containment, not equality. */
function contains(output: unknown, value: unknown): boolean {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (output === null || typeof output !== 'object' || Array.isArray(output)) return false;
    return Object.entries(value).every(([key, member]) => contains((output as Record<string, unknown>)[key], member));
  }
  return jsonEqual(output, value);
}

/** agent.tool-called carries argsHash in place of inputs (the honest tool-inputs-redacted choice). */
const redactInputs =
  (emit: Emit): Emit =>
  (type, payload) => {
    if (type !== 'agent.tool-called') return emit(type, payload);
    const { inputs, ...rest } = payload;
    emit(type, {
      ...rest,
      argsHash: `sha256:${Buffer.from(JSON.stringify(inputs ?? null))
        .toString('base64url')
        .slice(0, 43)}`,
    });
  };

const REDACTED: ReferenceHostOptions = { engineBehaviour: { outgoingEvents: redactInputs } };

/**
 * A miss's error message that lists the args of the entries no call matched. The engine runs a
 * trial without yielding, so the entries of the miss just selected are the ones its error reports.
 */
function missQuotingArgs(): Partial<EngineBehaviour> {
  let entriesOfMiss: unknown[] = [];
  return {
    selectFixture: (entries, consumed, toolName, inputs) => {
      const index = REF.selectFixture(entries, consumed, toolName, inputs);
      if (index === undefined) entriesOfMiss = entries.map((entry) => entry.args).filter((args) => args !== undefined);
      return index;
    },
    outgoingEvents: (emit) => (type, payload) => {
      const error = payload.error as { code?: unknown; message?: unknown } | undefined;
      if (type !== 'agent.tool-returned' || error?.code !== 'eval_fixture_miss') return emit(type, payload);
      emit(type, { ...payload, error: { ...error, message: `no fixture entry matches; the entries expect ${JSON.stringify(entriesOfMiss)}` } });
    },
  };
}

export const AUDIT_CLAUSES: KnownBadHost[] = [
  {
    name: 'golden-exact-ignores-case',
    defect: 'a golden exact match compares the answer and the value case-insensitively',
    clause: 'RFC 0081 §D',
    ...engine({ trialScore: goldenRead('exact', (output, value) => stringForm(output).toLowerCase() === stringForm(value).toLowerCase()) }),
  },
  {
    name: 'golden-contains-as-exact',
    defect: 'a golden contains match passes only an answer equal to the value',
    clause: 'RFC 0081 §D',
    ...engine({ trialScore: goldenRead('contains', (output, value) => stringForm(output) === stringForm(value)) }),
  },
  {
    name: 'golden-json-match-as-containment',
    defect: "a golden json-match passes an answer holding the value's members, extra members and all",
    clause: 'RFC 0081 §D',
    ...engine({ trialScore: goldenRead('json-match', contains) }),
  },
  {
    name: 'fixture-args-absent-as-exact',
    defect: 'a toolResponses entry with args and no argsMatch serves only a call with exactly those args',
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: (entries, consumed, toolName, inputs) => {
        const index = entries.findIndex(
          (entry, i) => !consumed.has(i) && entry.tool === toolName && argsSatisfied(entry.args, entry.argsMatch ?? 'exact', inputs),
        );
        return index === -1 ? undefined : index;
      },
    }),
  },
  {
    name: 'expected-args-absent-as-exact',
    defect: 'an expected call with args and no argsMatch matches, under exact mode, only a call with exactly those args',
    clause: 'RFC 0244 §A',
    ...engine({
      exactMode: (expected, observed) =>
        REF.exactMode(
          expected,
          observed,
          (call, seen) => call.tool === seen.toolName && argsSatisfied(call.args, call.argsMatch ?? 'exact', seen.inputs, subsetMatches),
        ),
    }),
  },
  {
    name: 'miss-error-quotes-fixture-args',
    defect: "a fixture miss's tool error message quotes the args of the suite's unmatched entries",
    clause: 'RFC 0244 §H',
    ...engine(missQuotingArgs()),
  },
  {
    name: 'args-refusal-quotes-args',
    defect: "the refusal of fixture args on a host without fixtureMatching quotes the entries' args in its message",
    clause: 'RFC 0244 §H',
    ...engine(
      {
        featureRefusal: (suite, facets) => {
          const refusal = REF.featureRefusal(suite, facets);
          const args = suite.tasks.flatMap((task) => (task.fixtures?.toolResponses ?? []).map((entry) => entry.args).filter((a) => a !== undefined));
          return refusal === undefined || args.length === 0 ? refusal : { ...refusal, message: `${refusal.message} (args ${JSON.stringify(args)})` };
        },
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
    ),
  },
  {
    name: 'forbidden-counted-per-tool',
    defect: 'forbiddenCount counts the distinct forbidden tools called, not the calls',
    clause: 'RFC 0244 §A',
    ...engine({ forbiddenCount: (observed, forbidden) => new Set(observed.map((call) => call.toolName).filter((name) => forbidden.includes(name))).size }),
  },
  {
    name: 'delegate-calls-after-own',
    defect: "with includeDelegates the observed trajectory lists the agent's own calls first, then its delegates'",
    clause: 'RFC 0244 §A',
    ...engine({
      observedTrajectory: (calls, target, includeDelegates) =>
        includeDelegates === true
          ? [...calls.filter((call) => call.agentId === target), ...calls.filter((call) => call.agentId !== target)]
          : REF.observedTrajectory(calls, target, includeDelegates),
    }),
  },
  {
    name: 'memory-seed-reapplied-over-shared-store',
    defect: "each trial re-applies the seed over one store shared by the task's trials, so a key the seed lacks keeps an earlier trial's write",
    clause: 'RFC 0244 §B',
    ...engine({
      memoryPerTrial: (seed) => {
        const shared = new Map<string, unknown>();
        return () => {
          for (const entry of seed) shared.set(entry.key, structuredClone(entry.value));
          return shared;
        };
      },
    }),
  },
  {
    name: 'args-matched-after-redaction',
    defect: 'a host that redacts agent.tool-called inputs matches trajectory args against the redacted call, so args never match',
    clause: 'RFC 0244 §A (UQ 6, resolved)',
    base: REDACTED,
    options: {
      engineBehaviour: {
        outgoingEvents: redactInputs,
        observedTrajectory: (calls, target, includeDelegates) =>
          REFERENCE_BEHAVIOUR.observedTrajectory(
            calls.map((call) => ({ ...call, inputs: undefined })),
            target,
            includeDelegates,
          ),
      },
    },
  },
];
