// Known-bad hosts of RFC 0252 (recorded fixtures): each entry one named defect in how the host
// accepts `fixtureRuns` and serves a task from its source run.

import { type KnownBadHost, REF, engine, refusedAsForeign, server, rewriting, without } from '../build.ts';

export const RECORDED_FIXTURES: KnownBadHost[] = [
  {
    name: 'fixture-runs-ignored',
    defect: 'a task named in fixtureRuns runs on live tools: no recorded answers, the counter moves',
    clause: 'RFC 0252 §D',
    ...engine({ fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, fixtureRuns: undefined }, task) }),
  },
  {
    name: 'fixture-runs-not-echoed',
    defect: 'eval.started leaves out the accepted fixtureRuns map',
    clause: 'RFC 0252 §E',
    ...engine({ outgoingEvents: rewriting('eval.started', (payload) => without(payload, 'fixtureRuns')) }),
  },
  {
    name: 'fixture-runs-merged-with-own-fixtures',
    defect: 'fixtureRuns naming a task whose suite fixtures carry toolResponses is accepted, the two sources merged',
    clause: 'RFC 0252 §B',
    ...engine({ ownFixturesRefusal: () => undefined }),
  },
  {
    name: 'fixture-runs-unknown-key-accepted',
    defect: 'a fixtureRuns key naming no task of the suite is accepted',
    clause: 'RFC 0252 §B',
    ...engine({ fixtureRunsKeysRefusal: () => undefined }),
  },
  {
    name: 'fixture-runs-on-workflow-ignored',
    defect: 'fixtureRuns on a workflow run (no mode) is dropped and the run created, not refused',
    clause: 'RFC 0252 §B',
    ...server({ workflowBody: ({ fixtureRuns: _dropped, ...rest }) => rest }),
  },
  {
    name: 'source-refusal-echoes-id',
    defect: 'the refusal of an unusable source run quotes the id it was sent',
    clause: 'RFC 0252 §C',
    ...engine({ sourceRefusal: (runId) => ({ ...REF.sourceRefusal(runId), message: `fixtureRuns names ${runId}, a run this caller cannot use` }) }),
  },
  {
    name: 'foreign-source-accepted',
    defect: "another tenant's completed run is accepted as a fixtureRuns source",
    clause: 'RFC 0252 §C, Security',
    ...server({ priorRunFor: (_tenant, run) => run }),
  },
  {
    name: 'foreign-source-refused-differently',
    defect: "another tenant's run is refused 403 id_tenant_mismatch, not like an unknown id",
    clause: 'RFC 0252 §C, Security',
    ...server({ priorRunFor: refusedAsForeign('the source run') }),
  },
];
