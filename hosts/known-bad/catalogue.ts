// The known-bad hosts: each is the reference host with exactly one
// named defect, a swapped EngineBehaviour or HostBehaviour member or a facet switch, so that every
// requirement id of the harness has a host it must fail. `defect` and `clause` are each entry's
// docstring: one line naming what is broken and the clause it breaks. `base` is the honest
// configuration the defect is a defect of; `options` is `base` plus the defect.
//
// Which ids each entry must make `executed-fail` is pinned in kill-matrix.json, and
// test/kill-matrix.test.ts holds every entry to it. An entry whose defect sends something the
// schemas refuse runs with `validateTraffic: 'off'` (else the host would refuse its own answer)
// and says so in its defect line.
//
// The entries live in catalogue/, under the scenario family whose legs they fail and named like
// its modules (`catalogue/<family>/<rfc>-<sections>-<topic>.ts`, mirroring
// scenarios/<family>/); the groups whose entries cut across families (the wire, the edges, the
// classes, the audited clauses, the seams, the widened readings) sit at catalogue/'s top. This
// list keeps their order, which the kill-matrix table follows.

import type { KnownBadHost } from './catalogue/build.ts';
import { TRAJECTORY_AND_TRIALS } from './catalogue/v2-eval-trajectory-trials/0244-ab-trajectory-trials.ts';
import { FIXTURES_AND_COST } from './catalogue/v2-eval-trajectory-trials/0244-bcd-fixtures-efficiency-cost.ts';
import { WIRE } from './catalogue/wire.ts';
import { REGRESSION } from './catalogue/v2-eval-trajectory-trials/0244-f-regression.ts';
import { RECORDED_FIXTURES } from './catalogue/v2-eval-recorded-fixtures/0252-bcde-recorded.ts';
import { MODES_AND_TRIALS } from './catalogue/v2-eval-trajectory-trials/0244-ab-modes-trials-edges.ts';
import { RUN_SURFACE } from './catalogue/v2-eval-run-surface/0081-abcd-run-surface.ts';
import { REGRESSION_VERDICTS } from './catalogue/v2-eval-trajectory-trials/0244-f-verdicts.ts';
import { EDGES } from './catalogue/edges.ts';
import { GENERATED_AND_READ_FORMS } from './catalogue/v2-eval-trajectory-trials/0244-af-generated-suites-read-forms.ts';
import { CLASSES } from './catalogue/classes.ts';
import { AUDIT_CLAUSES } from './catalogue/audit-clauses.ts';
import { SEAMS } from './catalogue/seams.ts';
import { LATITUDE } from './catalogue/latitude.ts';
import { REGRESSION_METHODS } from './catalogue/v2-eval-trajectory-trials/0244-f-methods.ts';
import { FEATURE_REFUSALS } from './catalogue/v2-eval-trajectory-trials/0244-g-refusals.ts';
import { COST_CEILING } from './catalogue/v2-eval-run-surface/0081-d-cost-ceiling.ts';
import { ADVERSARIAL } from './catalogue/v2-eval-run-surface/0081-d-adversarial.ts';
import { PROVENANCE } from './catalogue/v2-eval-run-surface/0081-c-provenance.ts';
import { ROUTE_DEFECTS } from './catalogue/routes.ts';
import { ENVELOPES } from './catalogue/envelopes.ts';
import { HELD_RUNS } from './catalogue/held-runs.ts';
import { LIMIT_PROBES } from './catalogue/limit-probes.ts';
import { FIXED_WITNESSES } from './catalogue/fixed-witnesses.ts';
import { SECOND_RUNS } from './catalogue/second-runs.ts';
import { GENERATOR_AUDIT } from './catalogue/generator-audit.ts';
import { JUDGE } from './catalogue/v2-eval-trajectory-trials/0244-ac-judge.ts';
import { REFUSAL_POSITIONS } from './catalogue/refusal-positions.ts';
import { FIXTURE_ARGS } from './catalogue/v2-eval-trajectory-trials/0244-d-fixture-args.ts';
import { PARTIAL_READS } from './catalogue/partial-reads.ts';
import { ROUTE_SEMANTICS } from './catalogue/route-semantics.ts';
import { RECHECKS_AND_SEEDS } from './catalogue/rechecks-and-seeds.ts';
import { GRADING_CORNERS } from './catalogue/grading-corners.ts';
import { FIXTURE_CORNERS } from './catalogue/fixture-corners.ts';
import { TRIALS_COMBINED } from './catalogue/trials-combined.ts';
import { LIVE_TOOL_ERRORS } from './catalogue/live-tool-errors.ts';
import { FIXTURE_SERVED_SOURCES } from './catalogue/v2-eval-recorded-fixtures/0252-d-fixture-served-sources.ts';
import { VALUE_GATED } from './catalogue/value-gated.ts';

export type { KnownBadHost } from './catalogue/build.ts';

export const KNOWN_BAD_HOSTS: KnownBadHost[] = [
  ...TRAJECTORY_AND_TRIALS,
  ...FIXTURES_AND_COST,
  ...WIRE,
  ...REGRESSION,
  ...RECORDED_FIXTURES,
  ...MODES_AND_TRIALS,
  ...RUN_SURFACE,
  ...REGRESSION_VERDICTS,
  ...EDGES,
  ...GENERATED_AND_READ_FORMS,
  ...CLASSES,
  ...AUDIT_CLAUSES,
  ...SEAMS,
  ...LATITUDE,
  ...REGRESSION_METHODS,
  ...FEATURE_REFUSALS,
  ...COST_CEILING,
  ...ADVERSARIAL,
  ...PROVENANCE,
  ...ROUTE_DEFECTS,
  ...ENVELOPES,
  ...HELD_RUNS,
  ...LIMIT_PROBES,
  ...FIXED_WITNESSES,
  ...SECOND_RUNS,
  ...GENERATOR_AUDIT,
  ...JUDGE,
  ...REFUSAL_POSITIONS,
  ...FIXTURE_ARGS,
  ...PARTIAL_READS,
  ...ROUTE_SEMANTICS,
  ...RECHECKS_AND_SEEDS,
  ...GRADING_CORNERS,
  ...FIXTURE_CORNERS,
  ...TRIALS_COMBINED,
  ...LIVE_TOOL_ERRORS,
  ...FIXTURE_SERVED_SOURCES,
  ...VALUE_GATED,
];
