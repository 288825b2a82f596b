// v2-eval-trajectory-trials/0244-g-feature-refusals — RFC 0244 §G: a feature the host does not advertise is refused, facet by facet.
//
// Legs:
//   1. openwop.requirement.0244.trajectory-unadvertised-refused      a trajectory suite on a host without `trajectory`, and
//                                                 a golden task carrying expected.trajectory (one rule each)
//   2. openwop.requirement.0244.fixture-matching-unadvertised-refused  `onMiss`, and `toolResponses[].args`, on a host
//                                                 without `fixtureMatching` (one rule each)
//   3. openwop.requirement.0244.trials-over-max-refused              `trials.count` above the host's `maxTrials`, from
//                                                 a listed fixture or else one seeded through the
//                                                 seams at maxTrials + 1; and a suite seeded at
//                                                 exactly maxTrials runs and is graded (rule
//                                                 at-limit-graded: the limit probed from both sides)
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The probes of the rules trajectory-on-golden, on-miss and fixture-args carry the feature on a
// task between two plain ones, so a host that reads only one end of the suite runs them.
// Each refusal is 400 validation_error, names the field (scenarios/support/refusal.ts), quotes
// none of the suite's args (RFC 0244 §H) and creates no run. Legs 1–2 run only on a host that
// advertises agents.evalSuite WITHOUT the member; leg 3 wherever the host advertises trials with a
// maxTrials it lists a fixture over or lets the harness seed one (the seams). On a host advertising
// everything, legs 1–2 are inapplicable, as RFC 0244 §G makes every facet optional. (`trials.count` > 1 without
// `trials` is openwop.requirement.0244.unadvertised-feature-refused, ./0244-g-facets.ts.)

import { createEvalRun, readErrorCode, readRunEvents, type CreateEvalRunResult } from '../../lib/client/index.ts';
import type { Checks } from '../../lib/ledger/leg.ts';
import { defineScenario, type FacetMember, type Leg } from '../../lib/ledger/scenario.ts';
import type { Target } from '../../lib/ledger/target.ts';
import { refusalNaming } from '../support/refusal.ts';
import { unsentSuiteArgs } from '../support/served-facts/classes.ts';
import { requireCompleted, SCRIPTED_AGENT, summaryTask } from '../support/eval-run.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { MAX_PROBED_TRIALS, trialLimitFixture } from '../support/trial-limit.ts';
import { seedEvalSuite } from '../../lib/client/index.ts';
import { need } from '../../lib/ledger/leg.ts';
import { fixtureMisfitOf } from '../../lib/ledger/fit.ts';

/** Trajectory-only tasks (kind "trajectory", expected.trajectory), no fixtures, one trial. */
const TRAJECTORY_MATCHING = 'conformance-eval-trajectory-matching';
/** A golden task with expected.trajectory (the field without the kind), between two plain tasks. */
const TRAJECTORY_ON_GOLDEN = 'conformance-eval-trajectory-on-golden';
/** A fixtures block with onMiss and nothing else, on the middle one of three tasks. */
const ONMISS_ONLY = 'conformance-eval-onmiss-only';
/** One fixture entry with args, no onMiss, on the middle one of three tasks. */
const ARGS_PROBE = 'conformance-eval-fixture-args-probe';

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
  if (answer.runId !== undefined) await readRunEvents(target.client, answer.runId).catch(() => undefined);
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

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.trajectory-unadvertised-refused',
    title: 'a suite with trajectory expectations on a host that does not advertise the trajectory facet is refused with 400 naming the field',
    clause: 'RFC 0244 §G',
    rules: {
      main: 'RFC 0244 §G (kind "trajectory" with expected.trajectory)',
      'trajectory-on-golden': 'RFC 0244 §G (expected.trajectory, whatever the kind)',
    },
    needs: { absent: ['trajectory'], fixtures: [TRAJECTORY_MATCHING, TRAJECTORY_ON_GOLDEN] },
    async run(check, target) {
      // The feature is `expected.trajectory` or `kind: "trajectory"` (RFC 0244 §G); the first
      // probe's tasks carry both, so a refusal naming either field names the feature.
      check.rule('main');
      const answer = await createEvalRun(target.client, { evalSuiteRef: TRAJECTORY_MATCHING, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, answer, TRAJECTORY_MATCHING, ['expected.trajectory', 'expected.kind'], 'a trajectory suite');
      // The second carries expected.trajectory on a golden task: only that field names the
      // feature, so a host that refuses the kind alone grades the path as absent.
      check.rule('trajectory-on-golden');
      const golden = await createEvalRun(target.client, { evalSuiteRef: TRAJECTORY_ON_GOLDEN, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, golden, TRAJECTORY_ON_GOLDEN, ['expected.trajectory'], 'a golden task with expected.trajectory');
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
    rules: {
      main: 'RFC 0244 §G (a trials.count above maxTrials is refused, never silently graded)',
      'at-limit-graded': "RFC 0244 §G, §B (a trials.count at the advertised maxTrials is the host's to run and grade)",
    },
    needs: { facet: ['trials'] },
    chain: 6,
    async run(check, target) {
      const maxTrials = (target.facet?.trials as { maxTrials?: unknown } | undefined)?.maxTrials;
      if (typeof maxTrials !== 'number' || !Number.isSafeInteger(maxTrials) || maxTrials < 1)
        return check.inapplicable('the host advertises agents.evalSuite.trials without a positive integer maxTrials');
      const listed = overMaxTrials(target, maxTrials)[0];
      const tag = target.seed.hex('trial-limit', 6);
      const atLimit = trialLimitFixture(`conformance-eval-at-max-trials-${tag}`, maxTrials, `exactly the host's maxTrials ${maxTrials}`);
      // The seeded suites are golden suites: a host that does not run golden cannot be probed so.
      const misfit = fixtureMisfitOf(target.facet ?? {}, atLimit);
      const seedable = target.seams && maxTrials <= MAX_PROBED_TRIALS && misfit === undefined;
      if (listed === undefined && !seedable) {
        return check.inapplicable(
          !target.seams
            ? `every fixture the host lists and can otherwise run needs at most its trials.maxTrials ${maxTrials} trials, and without the seams no count above it can be seeded`
            : misfit !== undefined
              ? `no fixture the host lists runs more than its trials.maxTrials ${maxTrials} trials, and the suite this leg seeds does not fit it: ${misfit}`
              : `the host's trials.maxTrials ${maxTrials} is over the ${MAX_PROBED_TRIALS} trials this leg seeds, and no fixture it lists runs more`,
        );
      }
      // From here the host has claimed trials with a limit: a count over it must be refused.
      let probe = listed;
      if (probe === undefined) {
        const doc = trialLimitFixture(`conformance-eval-over-max-trials-${tag}`, maxTrials + 1, `one trial over the host's maxTrials ${maxTrials}`);
        const seeded = await seedEvalSuite(target.client, doc);
        need(check, seeded.ok, `the seeding seam accepts a suite of ${maxTrials + 1} trials`, seeded.ok ? undefined : seeded.reason);
        probe = { id: doc.id, count: maxTrials + 1 };
        check.saw(`a suite of maxTrials + 1 trials seeded through the seams`);
      }
      const answer = await createEvalRun(target.client, { evalSuiteRef: probe.id, agentId: SCRIPTED_AGENT });
      await checkRefused(check, target, answer, probe.id, ['trials.count'], `${probe.id} (${probe.count} trials, maxTrials ${maxTrials})`);

      // And from below: a suite of exactly maxTrials trials is run and graded like any other.
      check.rule('at-limit-graded');
      if (!seedable) {
        check.saw(
          `a suite of exactly maxTrials ${maxTrials} trials not seeded (${misfit ?? (target.seams ? `over the ${MAX_PROBED_TRIALS} this leg seeds` : 'no seams')})`,
        );
        return;
      }
      const run = requireCompleted(check, await observeSeededRun(check, target, atLimit), { trajectoryArgs: false });
      check.equal(run.summary.passed, true, `a suite of exactly maxTrials ${maxTrials} passing trials passes`);
      const task = summaryTask(run.summary, 'ok');
      check.equal((task?.trials as { n?: unknown } | undefined)?.n, maxTrials, `all ${maxTrials} trials of the task are run`);
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-g-feature-refusals.ts', hostLegs);
