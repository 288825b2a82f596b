// v2-eval-feature-refusals — RFC 0244 §G: a suite using a feature whose facet the host does not
// advertise is refused at create with 400 validation_error naming the field, for every facet; and
// the RFC 0244 §D fixture rules the trajectory-trials legs leave out.
//
// Host legs:
//   1. 0244.trajectory-unadvertised-refused      a trajectory suite on a host without `trajectory`
//   2. 0244.fixture-matching-unadvertised-refused  `onMiss`, and `toolResponses[].args`, on a host
//                                                 without `fixtureMatching` (one rule each)
//   3. 0244.trials-over-max-refused              `trials.count` above the host's `maxTrials`
// (`trials.count` > 1 without `trials` is 0244.unadvertised-feature-refused.)
// Each refusal is 400 validation_error, names the field (scenarios/support/refusal.ts), quotes
// none of the suite's args (RFC 0244 §H) and creates no run. Legs 1–2 run only on a host that advertises agents.evalSuite WITHOUT the member; leg 3
// only where some fixture the host lists runs more trials than its maxTrials. On a host
// advertising everything with a generous maxTrials they are inapplicable, as RFC 0244 §G makes
// every facet optional.
//   4. 0081.fixture-is-error-served      an isError entry reaches the agent as the tool error
//   5. 0244.onmiss-live-effect           a miss under onMiss "live" moves the effect counter (seams)
//   6. 0081.live-shadow-ignores-fixtures under live-shadow the live tool answers, never a fixture;
//                                        only where the host advertises the live-shadow mode
// Not witnessed: a miss under an ABSENT onMiss. RFC 0244 §D leaves the RFC 0081 behaviour
// unchanged and only RECOMMENDS failing closed (a SHOULD), and attaches fixtureMissCount only to
// onMiss "fail" and "live"; no fixture of this harness misses under an absent onMiss (CONTRACT §6).

import { createEvalRun, readErrorCode, readRunEvents, type CreateEvalRunResult } from '../lib/client/index.ts';
import { need, type Checks } from '../lib/ledger/leg.ts';
import { defineScenario, type FacetMember, type Leg } from '../lib/ledger/scenario.ts';
import type { Target } from '../lib/ledger/target.ts';
import { observeLiveEffects } from './support/effects.ts';
import { refusalNaming } from './support/refusal.ts';
import { unsentSuiteArgs } from './support/served-facts/classes.ts';
import {
  eventsOfType,
  observeEvalRun,
  payloadOf,
  requireCompleted,
  RUN_DEADLINE_MS,
  SCRIPTED_AGENT,
  sharedEvalRun,
  summaryTask,
  type ObservedEvalRun,
} from './support/eval-run.ts';
import { OUTCOME_UNSERVED, trialAnswers } from './support/answers.ts';

/** Trajectory-only tasks (kind "trajectory", expected.trajectory), no fixtures, one trial. */
const TRAJECTORY_MATCHING = 'conformance-eval-trajectory-matching';
/** A fixtures block with onMiss and nothing else. */
const ONMISS_ONLY = 'conformance-eval-onmiss-only';
/** One fixture entry with args, no onMiss. */
const ARGS_PROBE = 'conformance-eval-fixture-args-probe';

/** An isError entry answers the task's one counter call. */
const IS_ERROR = 'conformance-eval-fixture-is-error';
/** One fixtured echo call and one live miss under onMiss "live". */
const ONMISS_LIVE = 'conformance-eval-onmiss-live';
/** A live-shadow suite whose fixtured task has an entry for its echo call. */
const LIVE_SHADOW = 'conformance-eval-live-shadow';

const FACET_MEMBERS: readonly FacetMember[] = ['trajectory', 'trials', 'fixtureMatching', 'regressionVerdict', 'recordedFixtures'];

/** The host advertises `member` (trials: an object with maxTrials; the rest: true). */
function advertises(target: Target, member: FacetMember): boolean {
  const value = target.facet?.[member];
  return member === 'trials' ? typeof value === 'object' && value !== null : value === true;
}

/**
 * RFC 0244 §G: "rejected with `400 validation_error`, naming the field", and never graded as if
 * the field were absent, so no run exists. `fields` are the names accepted for the feature; the
 * values the request sent never count as naming one.
 */
async function checkRefused(
  check: Checks,
  target: Target,
  answer: CreateEvalRunResult,
  fixtureId: string,
  fields: readonly string[],
  what: string,
): Promise<void> {
  check.equal(answer.status, 400, `${what}: the create answers 400`);
  check.equal(readErrorCode(answer.json), 'validation_error', `${what}: the error code is validation_error`);
  const naming = fields.map((field) => refusalNaming(answer.json, field, [fixtureId, SCRIPTED_AGENT])).find((found) => found !== undefined);
  check.ok(naming !== undefined, `${what}: the refusal names the field (${fields.join(' or ')})`, answer.json);
  if (naming !== undefined) check.saw(`a §G refusal naming its field in ${naming} (RFC 0244 §G)`);
  check.equal(answer.runId, undefined, `${what}: no run is created and nothing is graded`);
  // RFC 0244 §H: suite args are suite content, never echoed onto the wire — a refusal included.
  const doc = target.fixtureDocs.get(fixtureId);
  const quoted = doc === undefined ? [] : unsentSuiteArgs(doc, []).filter((arg) => answer.text.includes(arg));
  check.ok(quoted.length === 0, `${what}: the refusal quotes none of the suite's args (RFC 0244 §H)`, quoted);
  // A run the host should have refused is read to its end, so its live tool calls do not move
  // the effect counter under a later leg that reads it (CONTRACT §5); its outcome is nobody's.
  if (answer.runId !== undefined) await readRunEvents(target.client, answer.runId, { deadlineMs: RUN_DEADLINE_MS }).catch(() => undefined);
}

/**
 * The fixtures the host lists that it cannot run only because they need more trials than its
 * `maxTrials`: every other member they require is advertised. Largest count first.
 */
function overMaxTrials(target: Target, maxTrials: number): Array<{ id: string; count: number }> {
  const out: Array<{ id: string; count: number }> = [];
  for (const [id, doc] of target.fixtureDocs) {
    const count = (doc.suite.trials as { count?: unknown } | undefined)?.count;
    if (typeof count !== 'number' || count <= maxTrials || !target.fixtures.has(id)) continue;
    const required = Object.entries(doc.requires ?? {})
      .filter(([, needed]) => needed)
      .map(([member]) => member);
    if (required.every((member) => !(FACET_MEMBERS as readonly string[]).includes(member) || advertises(target, member as FacetMember)))
      out.push({ id, count });
  }
  return out.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
}

/** What each of the target agent's tool calls in `taskId` got back, in log order. */
function returnedTo(run: ObservedEvalRun, taskId: string): Array<Record<string, unknown>> {
  const scored = eventsOfType(run, 'eval.scored');
  const end = scored.find((event) => payloadOf(event).taskId === taskId);
  const start = scored[scored.indexOf(end!) - 1]?.sequence ?? -1;
  return run.events
    .filter((event) => end !== undefined && event.sequence > start && event.sequence < end.sequence && event.type === 'agent.tool-returned')
    .map(payloadOf)
    .filter((payload) => payload.agentId === SCRIPTED_AGENT);
}

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.trajectory-unadvertised-refused',
    title: 'a suite with trajectory expectations on a host that does not advertise the trajectory facet is refused with 400 naming the field',
    clause: 'RFC 0244 §G',
    needs: { absent: ['trajectory'], fixtures: [TRAJECTORY_MATCHING] },
    async run(check, target) {
      // The feature is `expected.trajectory` or `kind: "trajectory"` (RFC 0244 §G); the probe's
      // tasks carry both, so a refusal naming either field names the feature.
      const answer = await createEvalRun(target.client, { evalSuiteRef: TRAJECTORY_MATCHING, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, answer, TRAJECTORY_MATCHING, ['expected.trajectory', 'expected.kind'], 'a trajectory suite');
    },
  },
  {
    id: 'openwop.requirement.0244.fixture-matching-unadvertised-refused',
    title: 'a suite using onMiss, or fixture entries with args, on a host that does not advertise fixtureMatching is refused with 400 naming the field',
    clause: 'RFC 0244 §G',
    rules: { 'on-miss': 'RFC 0244 §G (onMiss)', 'fixture-args': 'RFC 0244 §G (toolResponses[].args)' },
    needs: { absent: ['fixtureMatching'], fixtures: [ONMISS_ONLY, ARGS_PROBE] },
    async run(check, target) {
      check.rule('on-miss');
      const onMiss = await createEvalRun(target.client, { evalSuiteRef: ONMISS_ONLY, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, onMiss, ONMISS_ONLY, ['onMiss'], 'a suite using onMiss');
      check.rule('fixture-args');
      // The probe's entry carries args and nothing else of §D, so the field is toolResponses[].args.
      const args = await createEvalRun(target.client, { evalSuiteRef: ARGS_PROBE, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, args, ARGS_PROBE, ['toolResponses.args'], 'a suite whose fixture entry carries args');
    },
  },
  {
    id: 'openwop.requirement.0244.trials-over-max-refused',
    title: "a suite whose trials.count is above the host's maxTrials is refused with 400 naming trials.count",
    clause: 'RFC 0244 §G',
    needs: { facet: ['trials'] },
    async run(check, target) {
      const maxTrials = (target.facet?.trials as { maxTrials?: unknown } | undefined)?.maxTrials;
      if (typeof maxTrials !== 'number') return check.inapplicable('the host advertises agents.evalSuite.trials without a numeric maxTrials');
      const probe = overMaxTrials(target, maxTrials)[0];
      if (probe === undefined) {
        return check.inapplicable(
          `every fixture the host lists and can otherwise run needs at most its trials.maxTrials ${maxTrials} trials, so no count above it can be probed`,
        );
      }
      const answer = await createEvalRun(target.client, { evalSuiteRef: probe.id, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, answer, probe.id, ['trials.count'], `${probe.id} (${probe.count} trials, maxTrials ${maxTrials})`);
    },
  },
  {
    id: 'openwop.requirement.0081.fixture-is-error-served',
    title: 'a fixture entry with isError is served to the agent as the tool error, its response as the error',
    clause: 'RFC 0081 §A (fixtures in place of live tool calls), CONTRACT §4',
    needs: { facet: [], fixtures: [IS_ERROR] },
    async run(check, target) {
      const run = requireCompleted(check, await sharedEvalRun(target, IS_ERROR));
      const task = run.fixture.suite.tasks[0]!;
      const entry = (task.fixtures as { toolResponses: Array<{ response: unknown }> }).toolResponses[0]!;
      const returned = returnedTo(run, task.taskId);
      check.equal(returned.length, 1, 'the task makes its one scripted call');
      for (const payload of returned) {
        // `status` is optional on agent.tool-returned: absent, the error object says the call failed.
        if (payload.status !== undefined) check.equal(payload.status, 'error', 'the call returns with status error');
        else check.saw('agent.tool-returned without the optional status');
        check.equal(payload.error, entry.response, "the tool error is the entry's response");
        check.equal(payload.outcome, undefined, 'the call carries no outcome');
      }
      check.equal(summaryTask(run.summary, task.taskId)?.fixtureMissCount ?? 0, 0, 'a served tool error is not a fixture miss');
    },
  },
  {
    id: 'openwop.requirement.0244.onmiss-live-effect',
    title: 'a miss under onMiss "live" reaches the live tool: the effect counter moves once per missed call',
    clause: 'RFC 0244 §D (onMiss "live"), CONTRACT §4, §5',
    needs: { facet: ['fixtureMatching'], fixtures: [ONMISS_LIVE], seams: true },
    observes: ['effects'],
    async run(check, target) {
      const { run, effects } = await observeLiveEffects(check, target, {
        own: () => observeEvalRun(target, ONMISS_LIVE),
        shared: () => sharedEvalRun(target, ONMISS_LIVE),
      });
      // The fixture's calls are all to the live echo tool, and the scripted agent's contract fixes
      // which of them miss (its expected grade); each miss is answered by the live tool
      // (CONTRACT §4), which the effect counter counts (CONTRACT §5).
      const misses = (run.fixture.expectedGrade as { tasks: Array<{ fixtureMissCount?: number }> }).tasks.reduce(
        (n, task) => n + (task.fixtureMissCount ?? 0),
        0,
      );
      need(check, misses > 0, `the ${ONMISS_LIVE} script misses at least once`, misses);
      check.equal(effects['conformance.eval:echo'] ?? 0, misses, "the run's effects show one live conformance.eval:echo call per miss");
    },
  },
  {
    id: 'openwop.requirement.0081.live-shadow-ignores-fixtures',
    title: "under the live-shadow mode a fixtured task's calls are answered by the live tools, never by its fixtures",
    clause: 'RFC 0081 §D (live-shadow), RFC 0244 §D ("live-shadow still ignores fixtures entirely")',
    needs: { facet: [], fixtures: [LIVE_SHADOW] },
    async run(check, target) {
      const modes = target.facet?.modes;
      if (!Array.isArray(modes) || !modes.includes('live-shadow')) return check.inapplicable('the host does not advertise the live-shadow mode');
      const run = requireCompleted(check, await sharedEvalRun(target, LIVE_SHADOW));
      for (const [taskId, expected] of Object.entries(run.fixture.expectedOutcomes ?? {})) {
        const answers = trialAnswers(run.events, taskId);
        if (!answers.known) return check.inapplicable(OUTCOME_UNSERVED);
        check.equal(answers.byTrial.get(0), expected, `task ${taskId}: the live echo tool answers each call with its own args, not the fixture entry`);
      }
      check.ok(Object.keys(run.fixture.expectedOutcomes ?? {}).length > 0, 'the fixture states the outcomes it expects');
    },
  },
];

export default defineScenario('v2-eval-feature-refusals.ts', hostLegs);
