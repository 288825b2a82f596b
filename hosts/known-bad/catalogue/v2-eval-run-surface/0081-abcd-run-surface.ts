// Known-bad hosts of the RFC 0081 run surface (scenarios/v2-eval-run-surface/): each entry
// one named defect in its modes, its summary reads (other tenants, run states) or its suite limits
// and thresholds.

import { HttpError } from '../../../reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR } from '../../../reference/host-behaviour.ts';
import type { ReferenceHostOptions } from '../../../reference/server.ts';
import { type KnownBadHost, REF, engine, refusedAsForeign, server, rewriting } from '../build.ts';

/** The honest base of the mode legs' defects: a host advertising all five RFC 0081 §D modes. */
const ALL_MODES: ReferenceHostOptions = { evalSuite: { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] } };

/** Holds every run open between trials, so a leg can ask about a run still running. */
const PACED: ReferenceHostOptions = { paceMs: 50 };

export const RUN_SURFACE: KnownBadHost[] = [
  {
    name: 'advertised-rubric-refused',
    defect: 'the host advertises the rubric mode but refuses every rubric suite at create',
    clause: 'RFC 0081 §D',
    ...engine({
      modeRefusal: (suite, facets) =>
        suite.modes.includes('rubric')
          ? { status: 400, error: 'validation_error', message: 'modes: rubric is not implemented', details: { field: 'modes' } }
          : REF.modeRefusal(suite, facets),
    }),
  },
  {
    name: 'started-modes-empty',
    defect: "eval.started.modes is empty, whatever modes the run's suite runs in",
    clause: 'RFC 0081 §C',
    ...engine({ outgoingEvents: rewriting('eval.started', (p) => ({ ...p, modes: [] })) }, ALL_MODES),
  },
  {
    name: 'live-shadow-injects-fixtures',
    defect: "a live-shadow run's tool calls are answered from the suite's fixtures, not the live tools",
    clause: 'RFC 0081 §A, §D',
    ...engine({ fixtureSource: (plan, task) => REF.fixtureSource({ ...plan, modes: plan.modes.filter((mode) => mode !== 'live-shadow') }, task) }, ALL_MODES),
  },
  {
    name: 'foreign-summary-served',
    defect: "another tenant's eval summary is served to whoever asks for its run id",
    clause: 'RFC 0081 §F (cross-tenant)',
    ...server({ summaryRunFor: (_tenant, run) => run }),
  },
  {
    name: 'foreign-summary-refused-differently',
    defect: "another tenant's eval summary is refused 403 id_tenant_mismatch, an unknown run id 404 not_found",
    clause: 'RFC 0081 §F (cross-tenant)',
    ...server({ summaryRunFor: refusedAsForeign('the run') }),
  },
  {
    name: 'summary-running-not-found',
    defect: "a running eval run's summary answers 404 not_found, not 409",
    clause: 'RFC 0081 §B',
    ...server(
      {
        summaryRefusal: (run, terminal) =>
          run.mode === 'eval' && !terminal ? new HttpError(404, 'not_found', 'no summary yet') : REFERENCE_HOST_BEHAVIOUR.summaryRefusal(run, terminal),
      },
      PACED,
    ),
  },
  {
    name: 'summary-workflow-run-conflict',
    defect: "a workflow run's eval summary answers 409 run_state_conflict, as if it were an eval run not yet ended",
    clause: 'RFC 0081 §B',
    ...server({
      summaryRefusal: (run, terminal) =>
        run.mode !== 'eval'
          ? new HttpError(409, 'run_state_conflict', 'the run has no summary yet', { runStatus: run.status })
          : REFERENCE_HOST_BEHAVIOUR.summaryRefusal(run, terminal),
    }),
  },
  {
    name: 'task-ceiling-ignored',
    defect: 'a suite over the advertised maxTasksPerSuite is accepted and every task of it run',
    clause: 'RFC 0081 §D',
    ...engine({ taskCeilingRefusal: () => undefined }),
  },
  {
    name: 'latency-threshold-refused',
    defect: 'a suite declaring thresholds.maxP95LatencyMs is refused at create',
    clause: 'RFC 0081 §A',
    ...engine({
      featureRefusal: (suite, facets) =>
        suite.thresholds?.maxP95LatencyMs !== undefined
          ? { status: 400, error: 'validation_error', message: 'thresholds.maxP95LatencyMs: not supported', details: { field: 'thresholds.maxP95LatencyMs' } }
          : REF.featureRefusal(suite, facets),
    }),
  },
  {
    name: 'latency-threshold-always-fails',
    defect: 'a suite declaring thresholds.maxP95LatencyMs never passes, whatever its latency',
    clause: 'RFC 0081 §A, §C',
    ...engine({ outgoingSummary: (summary, suite) => (suite.thresholds?.maxP95LatencyMs !== undefined ? { ...summary, passed: false } : summary) }),
  },
];
