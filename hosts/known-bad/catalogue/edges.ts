// Known-bad hosts of feature refusals, fixture edges and recorded-fixture edges (RFC 0244 §D, §G;
// RFC 0252): each entry one named defect at an edge the other groups do not reach.

import { ownCalls } from '../../reference/eval/recorded.ts';
import { type KnownBadHost, REF, engine, server, rewriting } from './build.ts';

export const EDGES: KnownBadHost[] = [
  {
    name: 'trajectory-unadvertised-graded',
    defect: 'a suite with trajectory expectations on a host without the trajectory facet is run instead of refused',
    clause: 'RFC 0244 §G',
    ...engine({ featureRefusal: (suite, facets) => REF.featureRefusal(suite, { ...facets, trajectory: true }) }, { evalSuite: { trajectory: false } }),
  },
  {
    name: 'on-miss-unadvertised-graded',
    defect: 'a suite using onMiss on a host without fixtureMatching is run instead of refused (fixture args still are)',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(
            {
              ...suite,
              tasks: suite.tasks.map((task) => (task.fixtures === undefined ? task : { ...task, fixtures: { ...task.fixtures, onMiss: undefined } })),
            },
            facets,
          ),
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
    ),
  },
  {
    name: 'fixture-args-unadvertised-graded',
    defect: 'fixture entries with args on a host without fixtureMatching are run instead of refused (onMiss still is)',
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(
            {
              ...suite,
              tasks: suite.tasks.map((task) =>
                task.fixtures?.toolResponses === undefined
                  ? task
                  : { ...task, fixtures: { ...task.fixtures, toolResponses: task.fixtures.toolResponses.map(({ args: _args, ...entry }) => entry) } },
              ),
            },
            facets,
          ),
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false } },
    ),
  },
  {
    name: 'max-trials-not-enforced',
    defect: "a suite whose trials.count is above the host's maxTrials is run instead of refused",
    clause: 'RFC 0244 §G',
    ...engine(
      {
        featureRefusal: (suite, facets) =>
          REF.featureRefusal(suite, facets.trials === undefined ? facets : { ...facets, trials: { maxTrials: Number.MAX_SAFE_INTEGER } }),
      },
      { evalSuite: { trials: { maxTrials: 2 } } },
    ),
  },
  {
    name: 'fixture-error-served-as-outcome',
    defect: 'an isError fixture entry reaches the agent as a successful outcome (its response), not as a tool error',
    clause: 'RFC 0081 §A, CONTRACT §4',
    ...engine({
      outgoingEvents: rewriting('agent.tool-returned', (payload) => {
        const error = payload.error as { code?: unknown } | undefined;
        if (payload.status !== 'error' || error === undefined || error.code === 'eval_fixture_miss') return payload;
        const { error: served, ...rest } = payload;
        return { ...rest, status: 'ok', outcome: served };
      }),
    }),
  },
  {
    name: 'live-shadow-serves-fixtures',
    defect: "under the live-shadow mode a task's fixtures answer its calls instead of the live tools",
    clause: 'RFC 0081 §D, RFC 0244 §D',
    ...engine(
      { fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, modes: plan.modes.filter((mode) => mode !== 'live-shadow') }, task) },
      { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } },
    ),
  },
  {
    name: 'recorded-fixtures-without-fixture-matching',
    defect: 'discovery advertises recordedFixtures without fixtureMatching (validateTraffic off: the schema refuses it)',
    clause: 'RFC 0252 §A',
    ...server(
      {
        discovery: (document) => {
          const agents = document.agents as { evalSuite?: Record<string, unknown> };
          return { ...document, agents: { ...agents, evalSuite: { ...agents.evalSuite, recordedFixtures: true } } };
        },
      },
      { evalSuite: { fixtureMatching: false, recordedFixtures: false }, validateTraffic: 'off' },
    ),
  },
  {
    name: 'empty-fixture-runs-dropped',
    defect: 'an eval create with fixtureRuns {} is run as if fixtureRuns were absent, not refused',
    clause: 'RFC 0252 §B',
    ...server({
      evalBody: (body) =>
        JSON.stringify(body.fixtureRuns) === '{}' ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'fixtureRuns')) : body,
    }),
  },
  {
    name: 'on-miss-only-task-named',
    defect: 'fixtureRuns naming a task whose suite fixtures carry onMiss but no toolResponses is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: (named) => REF.ownFixturesRefusal(named.filter((task) => task.fixtures?.toolResponses !== undefined)) }),
  },
  {
    name: 'fixture-runs-under-live-shadow',
    defect: 'fixtureRuns on a run whose modes include live-shadow is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ liveShadowRefusal: () => undefined }, { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } }),
  },
  {
    name: 'erased-source-accepted',
    defect: 'a source run whose tool content was erased is accepted, with no derived entries',
    clause: 'RFC 0252 §C',
    ...engine({ sourceCalls: (run, agentId) => (run?.terminal && run.toolCalls === 'erased' ? [] : REF.sourceCalls(run, agentId)) }),
  },
  {
    name: 'failed-call-source-accepted',
    defect: 'a source run with a failed tool call is accepted (its call replayed as isError) on a host without fixtureErrors',
    clause: 'RFC 0252 §C',
    ...engine({
      sourceCalls: (run, agentId) => {
        if (run === undefined || !run.terminal || run.toolCalls === 'erased') return undefined;
        const calls = ownCalls(run.toolCalls, agentId);
        return calls.length === 0 || calls.some((call) => call.inputs === undefined) ? undefined : calls;
      },
    }),
  },
  {
    name: 'derived-entries-include-delegates',
    defect: "the entries derived from a source run include its delegates' calls",
    clause: 'RFC 0252 §D',
    ...engine({
      sourceCalls: (run, agentId) =>
        REF.sourceCalls(
          run === undefined || run.toolCalls === 'erased' ? run : { ...run, toolCalls: run.toolCalls.map((call) => ({ ...call, agentId, depth: 0 })) },
          agentId,
        ),
    }),
  },
];
