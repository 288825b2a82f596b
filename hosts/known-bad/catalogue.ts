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
// The entries live in catalogue/, one file per RFC and section; this list keeps their order.

import type { KnownBadHost } from './catalogue/build.ts';
import { TRAJECTORY_AND_TRIALS } from './catalogue/rfc0244-trajectory-trials.ts';
import { FIXTURES_AND_COST } from './catalogue/rfc0244-fixtures-cost.ts';
import { WIRE } from './catalogue/wire.ts';
import { REGRESSION } from './catalogue/rfc0244-regression.ts';
import { RECORDED_FIXTURES } from './catalogue/rfc0252-recorded.ts';
import { MODES_AND_TRIALS } from './catalogue/rfc0244-modes-trials.ts';
import { RUN_SURFACE } from './catalogue/rfc0081-run-surface.ts';
import { REGRESSION_VERDICTS } from './catalogue/rfc0244-verdicts.ts';
import { EDGES } from './catalogue/edges.ts';
import { GENERATED_AND_READ_FORMS } from './catalogue/generated-read-forms.ts';
import { CLASSES } from './catalogue/classes.ts';
import { AUDIT_CLAUSES } from './catalogue/audit-clauses.ts';
import { SEAMS } from './catalogue/seams.ts';
import { LATITUDE } from './catalogue/latitude.ts';

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
];
