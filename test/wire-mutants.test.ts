// The generated wire mutants (hosts/known-bad/wire-mutants.ts): a fixed-seed sample, each
// certified in-process and killed by some row that passes on the reference host; the full set is
// `npm run bench -- wire`. The generator grows with the schemas (a member added to a copy yields
// its mutants), drops what changes nothing served, and every exception names a generated mutant.

import { describe, expect, it } from 'vitest';
import { shippedSchemas } from '../hosts/honest-variants/generated.ts';
import { WIRE_MUTANT_EXCEPTIONS } from '../hosts/known-bad/wire-mutant-exceptions.ts';
import { wireMutants } from '../hosts/known-bad/wire-mutants-census.ts';
import { type Census, mutantCandidates, SERVER_EVENTS } from '../hosts/known-bad/wire-mutants.ts';
import { crossedEdit, servedCandidates } from '../hosts/known-bad/wire-mutants-served.ts';
import { ROUTES, type Route } from '../lib/routes/table.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { censusAndMutants, classOf, killsOf, SAMPLE_PER_CLASS, SAMPLE_SEED, SAMPLE_SIZE, sampleByClass } from './support/wire-mutants-harness.ts';

const scenarios = await loadScenarios();
const { reference, mutants, noOps } = await censusAndMutants(scenarios);
const sample = sampleByClass(
  mutants.filter((mutant) => WIRE_MUTANT_EXCEPTIONS[mutant.name] === undefined),
  SAMPLE_SEED,
);

describe.concurrent(`wire mutants: a sample of ${SAMPLE_SIZE} (seed ${SAMPLE_SEED}, ${JSON.stringify(SAMPLE_PER_CLASS)} by class) of ${mutants.length}`, () => {
  for (const mutant of sample) {
    it(`${mutant.name} is killed: ${mutant.defect}`, async ({ expect }) => {
      const kills = await killsOf(mutant, scenarios, reference);
      expect(kills, `${mutant.name} passes every row the reference host passes`).not.toEqual([]);
      console.log(`${mutant.name} killed by:\n  ${kills.join('\n  ')}`);
    });
  }
});

describe('the wire mutant generator', () => {
  it('names every exception and every event type out of its reach, each with its reason', () => {
    const names = new Set(mutants.map((mutant) => mutant.name));
    for (const [name, reason] of Object.entries(WIRE_MUTANT_EXCEPTIONS)) {
      expect(names.has(name), `${name}: an exception, but no such mutant is generated`).toBe(true);
      console.log(`excepted: ${name}: ${reason}`);
    }
    console.log(`out of the engine seam (the server writes them): ${SERVER_EVENTS().join(', ')}`);
    console.log(`${mutants.length} mutants, ${noOps.length} no-ops dropped, ${Object.keys(WIRE_MUTANT_EXCEPTIONS).length} excepted`);
    expect(SERVER_EVENTS()).toEqual(['run.started', 'run.completed', 'run.failed', 'run.cancelled']);
  });

  it('drops a perturbation that changes nothing served, and keeps one that does', () => {
    // The reference host serves no pinnedNodeIds and no safetyFindings; it serves every task's passed.
    expect(noOps).toContain('wire-dropped-eval-summary-pinnednodeids');
    expect(noOps).toContain('wire-event-dropped-agent-handoff');
    expect(mutants.map((m) => m.name)).toContain('wire-negated-eval-summary-tasks-passed');
    expect(new Set([...mutants.map((m) => m.name), ...noOps]).size).toBe(mutants.length + noOps.length);
  });

  it('grows when a schema gains a member: an optional number in the task entry yields its mutants', () => {
    const schemas = shippedSchemas();
    const id = 'https://schemas.openwop-eval-conformance.dev/v2/eval-summary.schema.json';
    const summary = structuredClone(schemas.get(id)!) as { $defs: { taskSummary: { properties: Record<string, unknown> } } };
    summary.$defs.taskSummary.properties.probeCount = { type: 'number', minimum: 0 };
    const grown = new Map(schemas).set(id, summary);
    const before = mutantCandidates(schemas);
    const after = mutantCandidates(grown);
    const added = after.filter((c) => c.member === 'eval-summary.tasks[].probeCount').map((c) => c.perturbation);
    expect(added).toEqual(expect.arrayContaining(['dropped', 'plus-one', 'plus-1e-6', 'swapped']));
    expect(after.length).toBeGreaterThanOrEqual(before.length + added.length);
    // Served by a host (a census that carries it), it is placed; served by none, it is a no-op.
    const served: Census = {
      runs: [],
      summaries: [{ suiteId: 's.evals.probe', summary: { suiteId: 's.evals.probe', tasks: [{ taskId: 't', score: 1, passed: true, probeCount: 3 }] } }],
    };
    const unserved: Census = {
      runs: [],
      summaries: [{ suiteId: 's.evals.probe', summary: { suiteId: 's.evals.probe', tasks: [{ taskId: 't', score: 1, passed: true }] } }],
    };
    const probe = after.filter((c) => c.member === 'eval-summary.tasks[].probeCount');
    expect(wireMutants(served, probe).mutants.map((m) => m.name)).toContain('wire-plus-one-eval-summary-tasks-probecount');
    expect(wireMutants(unserved, probe).mutants).toEqual([]);
  });

  it('perturbs every JSON answer of the route table, a route added there included, every envelope member, and crosses runIds', () => {
    const probe: Route = {
      ...ROUTES.find((route) => route.name === 'seam-counter')!,
      name: 'probe',
      template: '/conformance/seams/probe/{runId}',
    };
    const members = new Set(servedCandidates([...ROUTES, probe]).map((c) => c.member));
    for (const route of [...ROUTES, probe])
      for (const [status, answer] of Object.entries(route.answers)) {
        if (answer.body === 'error') expect(members, `${route.name} ${status}`).toContain(`route:${route.name}:${status}.error`);
        if (typeof answer.body === 'object' && answer.body.schema !== 'eval-summary')
          expect(
            [...members].some((m) => m.startsWith(`route:${route.name}:${status}.`)),
            `${route.name} ${status}`,
          ).toBe(true);
      }
    expect(members).toContain('route:probe:200.count');
    expect(members).toContain('route:summary:409.details.runStatus');
    for (const member of ['eventId', 'runId', 'type', 'timestamp', 'sequence', 'schemaVersion', 'causationId'])
      expect(members).toContain(`envelope:eval.scored.${member}`);
    const crossed = servedCandidates().filter((c) => c.perturbation.startsWith('crossed-'));
    expect(crossed.map((c) => `${c.perturbation} ${c.member}`)).toEqual(expect.arrayContaining(['crossed-other-tenant envelope:agent.tool-called.runId']));
    // Served by the reference host, each class yields mutants.
    expect(new Set(mutants.map(classOf))).toEqual(new Set(['eval', 'answer', 'envelope', 'crossed']));
  });

  it('crosses an event into the run of the same or the other tenant served last before it, the same in every read form', () => {
    const doc = (runId: string, sequence: number, type = 'eval.scored') => ({
      eventId: `e${runId}${sequence}`,
      runId,
      type,
      payload: {},
      timestamp: 't',
      sequence,
      schemaVersion: 1,
    });
    const edit = crossedEdit('eval.scored', 'crossed-other-tenant')();
    expect(edit(doc('tenant-a/r1', 0)).runId).toBe('tenant-a/r1');
    edit(doc('tenant-b/r2', 0, 'run.started'));
    const crossed = edit(doc('tenant-a/r1', 1)).runId;
    expect(crossed).toBe('tenant-b/r2');
    edit(doc('tenant-b/r3', 0, 'run.started'));
    expect(edit(doc('tenant-a/r1', 1)).runId, 'a second read form').toBe(crossed);
  });
});
