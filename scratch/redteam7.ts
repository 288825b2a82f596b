// Red-team round 7: one-member known-bad hosts on cross-tenant references in create bodies, the
// seams (per-run effects), memory seeds, mode-specific rules, and create-refusal envelopes.

import { type KnownBadHost, REF, engine, server } from '../hosts/known-bad/catalogue/build.ts';
import { HttpError } from '../hosts/reference/errors.ts';
import { REFERENCE_HOST_BEHAVIOUR as H } from '../hosts/reference/host-behaviour.ts';
import type { Refusal } from '../hosts/reference/eval/port.ts';

const SHADOW = { evalSuite: { modes: ['golden', 'rubric', 'regression', 'live-shadow'] } } as const;

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };

const retitled = (r: Refusal | undefined, edit: (r: Refusal) => Refusal): Refusal | undefined => (r === undefined ? undefined : edit(r));

export const REDTEAM_HOSTS: KnownBadHost[] = [
  // (1) cross-tenant references
  {
    name: 'rt7-foreign-baseline-refused-403',
    defect: "a baselineRunId naming another tenant's existing run is refused 403 id_tenant_mismatch; an unknown id 400",
    clause: 'docs/wire.md §1.3 (without disclosing whether it exists); RFC 0244 §H',
    ...server({
      priorRunFor: (tenant, run, use) => {
        if (use === 'baselineRunId' && run !== undefined && run.tenant !== tenant) throw new HttpError(403, 'id_tenant_mismatch', 'baseline of another tenant');
        return H.priorRunFor(tenant, run, use);
      },
    }),
  },
  {
    name: 'rt7-foreign-fork-refused-403',
    defect: "a fork of another tenant's existing run is refused 403 id_tenant_mismatch; an unknown id 404",
    clause: 'docs/wire.md §1.3; RFC 0244 §H',
    ...server({
      runFor: (route, tenant, runId, run) => {
        if (route === 'fork' && run !== undefined && run.tenant !== tenant) throw new HttpError(403, 'id_tenant_mismatch', 'run of another tenant');
        return H.runFor(route, tenant, runId, run);
      },
    }),
  },
  {
    name: 'rt7-foreign-source-accepted-second-time',
    defect: "another tenant's source run is refused the first time it is named, accepted from then on",
    clause: 'RFC 0252 §C, Security',
    ...server(
      (() => {
        const seen = new Set<string>();
        return {
          priorRunFor: (tenant, run, use) => {
            if (use === 'fixtureRuns' && run !== undefined && run.tenant !== tenant) {
              if (seen.has(run.runId)) return run;
              seen.add(run.runId);
            }
            return H.priorRunFor(tenant, run, use);
          },
        };
      })(),
    ),
  },
  {
    name: 'rt7-foreign-baseline-accepted-second-time',
    defect: "another tenant's baseline run is refused the first time it is named, accepted from then on",
    clause: 'RFC 0244 §H; docs/wire.md §1.3',
    ...server(
      (() => {
        const seen = new Set<string>();
        return {
          priorRunFor: (tenant, run, use) => {
            if (use === 'baselineRunId' && run !== undefined && run.tenant !== tenant) {
              if (seen.has(run.runId)) return run;
              seen.add(run.runId);
            }
            return H.priorRunFor(tenant, run, use);
          },
        };
      })(),
    ),
  },
  {
    name: 'rt7-foreign-summary-after-first-read',
    defect: "another tenant's eval summary is refused on the first read, served from then on",
    clause: 'RFC 0081 §F (cross-tenant, owner triple)',
    ...server(
      (() => {
        const seen = new Set<string>();
        return {
          summaryRunFor: (tenant, run, runId) => {
            if (run !== undefined && run.tenant !== tenant) {
              if (seen.has(run.runId)) return run;
              seen.add(run.runId);
            }
            return H.summaryRunFor(tenant, run, runId);
          },
        };
      })(),
    ),
  },
  {
    name: 'rt7-foreign-snapshot-after-first-read',
    defect: "another tenant's run snapshot is refused on the first read, served from then on (owner check on a cache miss only)",
    clause: 'RFC 0244 §H; CONTRACT §8 tenant scoping',
    ...server(
      (() => {
        const seen = new Set<string>();
        return {
          runFor: (route, tenant, runId, run) => {
            if (route === 'snapshot' && run !== undefined && run.tenant !== tenant) {
              if (seen.has(run.runId)) return run;
              seen.add(run.runId);
            }
            return H.runFor(route, tenant, runId, run);
          },
        };
      })(),
    ),
  },
  // (2) seams, memory, modes, discovery
  {
    name: 'rt7-run-effects-counter-dropped',
    defect: 'the per-run effects reading leaves out conformance.eval:counter calls',
    clause: 'CONTRACT §5 (per-run reading: every live call made for the run)',
    ...server({
      servedRunEffects: (effects) => Object.fromEntries(Object.entries(effects).filter(([tool]) => tool !== 'conformance.eval:counter')),
    }),
  },
  {
    name: 'rt7-run-effects-echo-dropped',
    defect: 'the per-run effects reading leaves out conformance.eval:echo calls',
    clause: 'CONTRACT §5',
    ...server({
      servedRunEffects: (effects) => Object.fromEntries(Object.entries(effects).filter(([tool]) => tool !== 'conformance.eval:echo')),
    }),
  },
  {
    name: 'rt7-run-effects-capped-at-one',
    defect: 'the per-run effects reading serves at most 1 per tool',
    clause: 'CONTRACT §5',
    ...server({ servedRunEffects: (effects) => Object.fromEntries(Object.entries(effects).map(([t, n]) => [t, Math.min(n, 1)])) }),
  },
  {
    name: 'rt7-run-effects-seam-404',
    defect: 'the per-run effects reading answers 404 for every run while evalSeamsProfile 2 is advertised',
    clause: 'CONTRACT §5 (blocked; a failure under --require-behavior)',
    ...server({ runFor: (route, tenant, runId, run) => (route === 'seam-run-effects' ? undefined : H.runFor(route, tenant, runId, run)) }),
  },
  {
    name: 'rt7-memory-seed-ignored',
    defect: "every trial starts with empty memory (the task's memorySeed is not applied)",
    clause: 'RFC 0244 §D (memorySeed) / CONTRACT §3',
    ...engine({ memoryPerTrial: () => () => new Map() }),
  },
  {
    name: 'rt7-memory-seed-of-first-task',
    defect: "every task of a suite starts from the first seeded task's memorySeed",
    clause: 'RFC 0244 §D / CONTRACT §3',
    ...engine(
      (() => {
        const first = new Map<string, ReadonlyArray<{ key: string; value: unknown }>>();
        return {
          memoryPerTrial: (seed, where) => {
            if (!first.has(where.suiteId) && seed.length > 0) first.set(where.suiteId, seed);
            return REF.memoryPerTrial(first.get(where.suiteId) ?? seed, where);
          },
        };
      })(),
    ),
  },
  {
    name: 'rt7-memory-seed-first-entry-only',
    defect: "only the first entry of a task's memorySeed is applied",
    clause: 'RFC 0244 §D / CONTRACT §3',
    ...engine({ memoryPerTrial: (seed, where) => REF.memoryPerTrial(seed.slice(0, 1), where) }),
  },
  {
    name: 'rt7-live-shadow-miss-count-zero',
    defect: 'under live-shadow every eval.scored carries fixtureMissCount 0',
    clause: 'CONTRACT §2 (live-shadow: graded as an unfixtured task, no fixtureMissCount)',
    ...engine(
      {
        outgoingEvents: (emit, plan) => (type, payload) =>
          emit(type, type === 'eval.scored' && plan?.suite.modes.includes('live-shadow') ? { ...payload, fixtureMissCount: 0 } : payload),
      },
      SHADOW,
    ),
  },
  {
    name: 'rt7-discovery-fixtures-emptied',
    defect: 'discovery lists no fixtures although the host holds the corpus',
    clause: 'RFC 0031 truthful advertisement (docs/wire.md §1.2)',
    ...server({ discovery: (document) => ({ ...document, fixtures: [] }) }),
  },
  // (3) create refusal envelopes
  {
    name: 'rt7-trials-refusal-names-trajectory',
    defect: 'the trials.count refusal names expected.trajectory',
    clause: 'RFC 0244 §G (the refusal names the field)',
    ...engine({
      featureRefusal: (suite, facets) =>
        retitled(REF.featureRefusal(suite, facets), (r) =>
          r.details?.field === 'trials.count' ? { ...r, message: 'expected.trajectory: not advertised', details: { field: 'expected.trajectory' } } : r,
        ),
    }),
  },
  {
    name: 'rt7-fixture-runs-key-refusal-422',
    defect: 'a fixtureRuns key naming no task is refused 422 validation_error',
    clause: 'RFC 0252 §B (400 validation_error)',
    ...engine({ fixtureRunsKeysRefusal: (ids, suite) => retitled(REF.fixtureRunsKeysRefusal(ids, suite), (r) => ({ ...r, status: 422 })) }),
  },
  {
    name: 'rt7-own-fixtures-refusal-409-conflict',
    defect: 'a named task with its own fixtures is refused 409 conflict',
    clause: 'RFC 0252 §B (400 validation_error)',
    ...engine({ ownFixturesRefusal: (named) => retitled(REF.ownFixturesRefusal(named), (r) => ({ ...r, status: 409, error: 'conflict' })) }),
  },
  {
    name: 'rt7-live-shadow-refusal-code-other',
    defect: 'fixtureRuns under live-shadow is refused 400 with code invalid_request',
    clause: 'RFC 0252 §B (400 validation_error)',
    ...engine({ liveShadowRefusal: (suite) => retitled(REF.liveShadowRefusal(suite), (r) => ({ ...r, error: 'invalid_request' })) }, SHADOW),
  },
  {
    name: 'rt7-mode-refusal-422',
    defect: 'an unadvertised mode is refused 422 validation_error',
    clause: 'RFC 0081 §D (400 validation_error)',
    ...engine({ modeRefusal: (suite, facets) => retitled(REF.modeRefusal(suite, facets), (r) => ({ ...r, status: 422 })) }),
  },
  {
    name: 'rt7-source-refusal-404',
    defect: 'every unusable source run is refused 404 not_found (uniformly)',
    clause: 'RFC 0252 §C, wire shape (400 validation_error)',
    ...engine({ sourceRefusal: (id) => ({ ...REF.sourceRefusal(id), status: 404, error: 'not_found' }) }),
  },
  {
    name: 'rt7-capability-refusal-names-other',
    defect: "the no-evalSuite refusal's details.capability names agents.eval",
    clause: 'v2 registry capability_not_provided (details.capability)',
    ...server(
      {
        evalCapabilityRefusal: () => new HttpError(422, 'capability_not_provided', 'no eval', { capability: 'agents.eval' }),
      },
      { evalSuite: false },
    ),
  },
];
