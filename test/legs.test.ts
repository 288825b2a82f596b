// Legs that once could not fail, or failed an honest host, driven through runLeg with one thing
// changed: the fixture corpus on disk, or what the harness observed of a real reference-host run.
// The known-bad hosts of the kill matrix cover the host side; these cover what a host cannot.

import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvalSuite } from '../lib/client/seams.ts';
import { fixture, FIXTURES_DIR, withFixturesDir } from '../lib/fixtures.ts';
import { gradeRun, type EvalSuite } from '../lib/grader/index.ts';
import { runLeg } from '../lib/ledger/runner.ts';
import type { Leg } from '../lib/ledger/scenario.ts';
import { openTarget, type Target } from '../lib/ledger/target.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { TestBug } from '../lib/test-bug.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { startReferenceHost, type ReferenceHost, type ReferenceHostOptions } from '../hosts/reference/server.ts';
import { observeEvalRun, sharedEvalRun, type ObservedRun } from '../scenarios/support/eval-run.ts';

const legs = (await loadScenarios()).flatMap((scenario) => scenario.legs.map((leg) => ({ file: scenario.file, leg })));
function legOf(id: string): { file: string; leg: Leg } {
  const found = legs.find((entry) => entry.leg.id === `openwop.requirement.${id}`);
  if (found === undefined) throw new TestBug(`no leg ${id}`);
  return found;
}

/** The shared observation of `fixtureId` that every leg of `target` will read, replaced by `run`. */
function inject(target: Target, fixtureId: string, run: ObservedRun): void {
  const memo = target.memo.bind(target);
  target.memo = <T>(key: string, make: (shared: Target) => Promise<T>) => (key === `eval-run:${fixtureId}` ? Promise.resolve(run as T) : memo(key, make));
}

describe('0244.fixtures-valid holds each fixture id to its file name on disk', () => {
  const { file, leg } = legOf('0244.fixtures-valid');
  let corpus: string;
  beforeAll(() => {
    corpus = mkdtempSync(join(tmpdir(), 'fixtures-'));
    cpSync(FIXTURES_DIR, corpus, { recursive: true });
  });
  afterAll(() => rmSync(corpus, { recursive: true, force: true }));

  it('passes the corpus as written', async () => {
    expect(await runLeg(file, leg, undefined)).toMatchObject({ result: 'executed-pass' });
  });

  it('fails a corpus in which one file was renamed without its id', async () => {
    renameSync(join(corpus, 'conformance-eval-cost.json'), join(corpus, 'conformance-eval-costs.json'));
    const row = await withFixturesDir(corpus, () => runLeg(file, leg, undefined));
    expect(row.result).toBe('executed-fail');
    expect(row.detail).toContain(
      'fixture file conformance-eval-costs.json carries its file name as its id: expected "conformance-eval-costs", got "conformance-eval-cost"',
    );
  });
});

describe('legs against a real reference-host run', () => {
  const hosts: ReferenceHost[] = [];
  const start = async (options: ReferenceHostOptions): Promise<Target> => {
    const host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:', ...options });
    hosts.push(host);
    const opened = await openTarget({ host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey }, requireBehavior: false });
    if (!opened.ok) throw new TestBug(`discovery of the reference host failed: ${opened.reason}`);
    return opened.target;
  };
  afterAll(async () => {
    for (const host of hosts) await host.close();
  });

  it('0244.trials-per-task passes an honest run of eleven trials (trialIndex 10 sorts after 9)', async () => {
    const target = await start({ evalSuite: { trials: { maxTrials: 11 } } });
    const TRIALS = 'conformance-eval-trials';
    const eleven = structuredClone(fixture(TRIALS));
    (eleven.suite.trials as { count: number }).count = 11;
    expect((await seedEvalSuite(target.client, eleven)).ok, 'the seam takes the eleven-trial copy').toBe(true);
    const run = await observeEvalRun(target, TRIALS);
    inject(target, TRIALS, { ...run, fixture: eleven, grade: gradeRun(eleven.suite as EvalSuite, run.events) });
    const { file, leg } = legOf('0244.trials-per-task');
    const row = await runLeg(file, leg, target);
    expect(row, row.detail).toMatchObject({ result: 'executed-pass' });
  });

  it('0081.eval-run-events passes a host that scores a trial after its agent.decided but before its bracket closes', async () => {
    // RFC 0081 §C orders eval.scored after the trial's agent.decided; it does not ask the
    // bracket to close first. This host moves each eval.scored in front of the
    // agent.invocation-completed that closes its trial.
    // The honest variant that makes this choice (hosts/honest-variants/catalogue.ts).
    const variant = HONEST_VARIANTS.find((candidate) => candidate.name === 'scored-before-bracket-closes');
    if (variant === undefined) throw new TestBug('the honest variant scored-before-bracket-closes is gone');
    const target = await start(variant.options);
    const { file, leg } = legOf('0081.eval-run-events');
    const row = await runLeg(file, leg, target);
    expect(row, row.detail).toMatchObject({ result: 'executed-pass' });
    const types = (await sharedEvalRun(target, 'conformance-eval-trials')).events.map((event) => event.type);
    expect(types.slice(types.indexOf('agent.decided'), types.indexOf('agent.decided') + 3), 'the premise: scored inside the bracket').toEqual([
      'agent.decided',
      'eval.scored',
      'agent.invocation-completed',
    ]);
  });

  it('0252.fields-refused posts a workflow run only to a host that lists the workflow', async () => {
    const { file, leg } = legOf('0252.fields-refused');
    for (const listed of [true, false]) {
      const target = await start({});
      if (!listed) target.fixtures.delete('conformance-workflow-noop');
      const posted: unknown[] = [];
      const request = target.client.request.bind(target.client);
      target.client = {
        ...target.client,
        request: (method, path, options) => {
          if (method === 'POST' && path === '/runs') posted.push(options?.body);
          return request(method, path, options);
        },
      };
      const row = await runLeg(file, leg, target);
      expect(row, row.detail).toMatchObject({ result: 'executed-pass' });
      const workflows = posted.filter((body) => (body as { workflowId?: unknown }).workflowId !== undefined);
      expect(workflows.length, listed ? 'the listed workflow is posted with fixtureRuns' : 'no workflow is posted').toBe(listed ? 1 : 0);
    }
  });
});
