// v2-eval-trajectory-trials/0244-eh-shape-content — RFC 0244: the new fields validate (§A–§G, §E) and
// carry no suite content (§H), in the harness's schemas and in what a host serves.
//
// Server-free legs (always on):
//   1. openwop.requirement.0244.wire-shape      (§A–§G) every new suite, summary, payload and facet field validates, and
//                           the §Examples schema negatives are refused.
//   2. openwop.requirement.0244.content-free    (§A, §E, §H) a trajectory block naming tools, a prose scoreLabel and content in
//                           eval.scored are refused (the v2 public test of eval-summary-no-content-leak).
// Host legs (below the server-free ones):
//   3. openwop.requirement.0244.served-shape          (§E) every eval.* payload and summary served validates.
//   4. openwop.requirement.0244.served-content-free   (§H) no served eval.* payload or summary carries suite content.
// Each host leg reads the runs of those of its fixtures discovery `fixtures` lists, and runs when
// it lists at least one.

import { defineScenario, fittingFixtures, type Leg } from '../../lib/ledger/scenario.ts';
import { validate, validateEventPayload } from '../../lib/schemas/index.ts';
import { assertContentFree } from '../support/content.ts';
import { requireCompleted, sharedEvalRun } from '../support/eval-run.ts';
import { vectorChecks } from '../support/shape.ts';
import { EFFICIENCY, MISS, TRAJECTORY, TRIALS } from '../support/trajectory-trials.ts';

/** Every fixture whose served payloads and summary the shape and content legs read. */
const SERVED = [TRAJECTORY, TRIALS, MISS, EFFICIENCY];

const hostLegs: Leg[] = [
  {
    id: 'openwop.requirement.0244.served-shape',
    title: 'every eval.* payload and summary the host serves validates, scoreLabel and evaluatorType included',
    clause: 'RFC 0244 §E',
    needs: { facet: [], someFixtures: SERVED },
    chain: 6,
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        for (const event of run.events.filter((e) => e.type.startsWith('eval.'))) {
          const result = validateEventPayload(event.type, event.payload);
          check.ok(result.ok, `${id}: the ${event.type} payload at sequence ${event.sequence} validates`, result.ok ? undefined : result.errors);
        }
        const summary = validate('eval-summary', run.summary);
        check.ok(summary.ok, `${id}: the summary validates`, summary.ok ? undefined : summary.errors);
      }
    },
  },
  {
    id: 'openwop.requirement.0244.served-content-free',
    title: 'no eval.* payload or summary the host serves carries the suite content',
    clause: 'RFC 0244 §H',
    needs: { facet: [], someFixtures: SERVED },
    async run(check, target) {
      for (const id of fittingFixtures(target, SERVED)) {
        const run = requireCompleted(check, await sharedEvalRun(target, id), { trajectoryArgs: false });
        assertContentFree(
          check,
          run.events.filter((e) => e.type.startsWith('eval.')).map((e) => e.payload),
          run.fixture,
          `${id}: the eval.* payloads`,
        );
        assertContentFree(check, run.summary, run.fixture, `${id}: the summary`);
      }
    },
  },
];

export default defineScenario('v2-eval-trajectory-trials/0244-eh-shape-content.ts', [
  {
    id: 'openwop.requirement.0244.wire-shape',
    title: 'the RFC 0244 suite, summary, payload and facet fields validate and the schema negatives are refused',
    clause: 'RFC 0244 §A–§G',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0244.wire-shape');
    },
  },
  {
    id: 'openwop.requirement.0244.content-free',
    title: 'a trajectory block naming tools, a prose scoreLabel and task content in eval.scored are refused',
    // The RFC's Falsifiability table names this id in its §A (counts only) and §E (scoreLabel) rows; §H states the rule.
    clause: 'RFC 0244 §A, §E, §H',
    serverFree: true,
    run(check) {
      vectorChecks(check, 'openwop.requirement.0244.content-free');
    },
  },
  ...hostLegs,
]);
