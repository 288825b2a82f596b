// Known-bad hosts of the create refusals that read one end of a list (RFC 0081 §D, RFC 0244 §G,
// RFC 0252 §B): each checks only the suite's first task or first mode, so a feature or mode
// anywhere else is run instead of refused. Their witnesses carry it between two others: the task
// probes conformance-eval-onmiss-only, -fixture-args-probe and -trajectory-on-golden (a plain task
// on each side), the mode probes conformance-eval-mode-probe-middle and
// -live-shadow-second-mode, and the fixtureRuns maps whose unknown key, or whose task with its
// own fixtures, comes second (openwop.requirement.0252.fields-refused).

import type { ReferenceHostOptions } from '../../reference/server.ts';
import { type KnownBadHost, REF, engine } from './build.ts';

const NO_FIXTURE_MATCHING: ReferenceHostOptions = { evalSuite: { fixtureMatching: false, recordedFixtures: false } };
const NO_TRAJECTORY: ReferenceHostOptions = { evalSuite: { trajectory: false } };
const WITH_LIVE_SHADOW: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } };

export const REFUSAL_POSITIONS: KnownBadHost[] = [
  {
    name: 'feature-refusal-first-task-only',
    defect: 'without fixtureMatching, only the first task is checked for onMiss / toolResponses[].args; a later task using them runs',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: (suite, facets) => REF.featureRefusal({ ...suite, tasks: suite.tasks.slice(0, 1) }, facets) }, NO_FIXTURE_MATCHING),
  },
  {
    name: 'trajectory-refusal-first-task-only',
    defect: 'without the trajectory facet, only the first task is checked for expected.trajectory; a later task carrying it runs',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: (suite, facets) => REF.featureRefusal({ ...suite, tasks: suite.tasks.slice(0, 1) }, facets) }, NO_TRAJECTORY),
  },
  {
    name: 'mode-refusal-first-mode-only',
    defect: "only the suite's first mode is checked against the advertised modes",
    clause: 'RFC 0081 §D',
    ...engine({ modeRefusal: (suite, facets) => REF.modeRefusal({ ...suite, modes: suite.modes.slice(0, 1) }, facets) }),
  },
  {
    name: 'live-shadow-refusal-first-mode-only',
    defect: 'fixtureRuns is refused under live-shadow only when live-shadow is the first mode of the suite',
    clause: 'RFC 0252 §B',
    ...engine({ liveShadowRefusal: (suite) => REF.liveShadowRefusal({ ...suite, modes: suite.modes.slice(0, 1) }) }, WITH_LIVE_SHADOW),
  },
  {
    name: 'fixture-runs-keys-first-only',
    defect: 'only the first fixtureRuns key is checked against the suite task ids; an unknown key after it is not refused 400',
    clause: 'RFC 0252 §B',
    ...engine({ fixtureRunsKeysRefusal: (taskIds, suite) => REF.fixtureRunsKeysRefusal(taskIds.slice(0, 1), suite) }),
  },
  {
    name: 'own-fixtures-first-named-only',
    defect: 'only the first task fixtureRuns names is checked for its own toolResponses / onMiss; a later one carrying them runs',
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: (named) => REF.ownFixturesRefusal(named.slice(0, 1)) }),
  },
];
