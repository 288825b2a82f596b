// The ledger's dispositions: one per requirement id, a reason on
// every non-pass, transport loss blocked, a vacuous pass reported as a harness defect.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificationSeed } from '../lib/certification-seed.ts';
import { createClient, TransportError } from '../lib/client/index.ts';
import { fixture, loadFixtures } from '../lib/fixtures.ts';
import { need, TestBug } from '../lib/ledger/leg.ts';
import { runLeg, runLegs } from '../lib/ledger/runner.ts';
import { decideGate, defineScenario, type HostLeg, type Needs } from '../lib/ledger/scenario.ts';
import { openTarget, seedMissingFixtures, type Target as OpenedTarget } from '../lib/ledger/target.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { validate, type SchemaName } from '../lib/schemas/index.ts';
import { startReferenceHost, type ReferenceHost } from '../hosts/reference/server.ts';
import { observeEvalRun } from '../scenarios/support/eval-run.ts';
import type { Target } from '../lib/ledger/target.ts';
import { SETTING_FLAGS } from '../commands/support/setting-flags.ts';

function target(facet: Record<string, unknown> | undefined, extra: Partial<Target> = {}): Target {
  const made: Target = {
    label: '[probe@1.0]',
    baseUrl: 'http://127.0.0.1:9',
    client: {} as never,
    discovery: {},
    facet,
    fixtures: new Set(['conformance-eval-trials']),
    seams: true,
    requireBehavior: false,
    fixtureDocs: loadFixtures(),
    seed: certificationSeed(),
    memo: (_key, make) => make(made),
    ...extra,
  };
  return made;
}

function leg(run: HostLeg['run'], needs: Needs = { facet: [] }, id = 'openwop.requirement.0244.probe'): HostLeg {
  return { id, title: 'a probe leg', clause: 'RFC 0244 §B', needs, run };
}

const FULL = { modes: ['golden'], trials: { maxTrials: 10 }, trajectory: true };

describe('runLeg', () => {
  it('records executed-pass with its assertion count', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => void check.equal(1, 1, 'one is one')),
      target(FULL),
    );
    expect(row).toEqual({ id: 'openwop.requirement.0244.probe', scenario: 'probe.test.ts', result: 'executed-pass', assertions: 1 });
  });

  it('records every failed assertion, naming the host, the clause and what was seen', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => {
        check.close(0.41, 0.4, 'passHatK');
        check.equal('a', 'b', 'the letter');
      }),
      target(FULL),
    );
    expect(row.result).toBe('executed-fail');
    expect(row.detail).toBe(
      '[probe@1.0] RFC 0244 §B passHatK: expected 0.4 (within 1e-9 relative), got 0.41\n[probe@1.0] RFC 0244 §B the letter: expected "b", got "a"',
    );
  });

  it('reports a leg that asserted nothing as a harness defect, never a pass', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async () => {}),
      target(FULL),
    );
    expect(row).toMatchObject({ result: 'blocked', detail: 'Test bug: the leg ran and made no assertion' });
  });

  it('records transport loss as blocked, never executed-fail', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => {
        check.ok(true, 'reached the host');
        throw new TransportError('GET /runs: socket hang up', 'ECONNRESET');
      }),
      target(FULL),
    );
    expect(row).toMatchObject({ result: 'blocked', detail: 'transport-loss: GET /runs: socket hang up' });
  });

  it('records a claimed behaviour it could not observe as blocked, and as a failure under --require-behavior', async () => {
    const unobservable = leg(async (check) => check.blocked('the counter seam answered 404'));
    expect(await runLeg('probe.test.ts', unobservable, target(FULL))).toMatchObject({ result: 'blocked', detail: 'the counter seam answered 404' });
    expect(await runLeg('probe.test.ts', unobservable, target(FULL, { requireBehavior: true }))).toMatchObject({ result: 'executed-fail' });
  });

  it('records a harness bug as blocked with "Test bug:", never as the host\'s fault', async () => {
    // Each harness mistake is reached through the library code that detects it, inside a leg.
    const mistakes: Array<[string, () => unknown, RegExp]> = [
      ['a fixture id no file carries', () => fixture('no-such-fixture'), /^Test bug: no fixture no-such-fixture in /],
      ['a schema name with no file', () => validate('no-such-schema' as SchemaName, {}), /^Test bug: no no-such-schema\.schema\.json in /],
      ['a base URL that is not absolute', () => createClient({ baseUrl: 'host.example' }), /^Test bug: baseUrl is not an absolute URL/],
      [
        'a request path without its leading slash',
        () => createClient({ baseUrl: 'http://127.0.0.1:9' }).request('GET', 'runs'),
        /^Test bug: request path must start with '\/'/,
      ],
    ];
    for (const [what, mistake, detail] of mistakes) {
      const row = await runLeg(
        'probe.test.ts',
        leg(async (check) => {
          check.ok(true, 'reached the host');
          await mistake();
        }),
        target(FULL),
      );
      expect(row.result, what).toBe('blocked');
      expect(row.detail, what).toMatch(detail);
    }
  });

  it('refuses a scenario declaring a malformed or repeated requirement id with a TestBug', () => {
    expect(() => defineScenario('probe.ts', [leg(async () => {}, {}, 'openwop.requirement.0244.Probe')])).toThrow(TestBug);
    expect(() => defineScenario('probe.ts', [leg(async () => {}), leg(async () => {})])).toThrow(
      /^Test bug: probe\.ts: requirement id openwop\.requirement\.0244\.probe is declared twice$/,
    );
  });

  it('stops at a failed require and keeps what failed before it', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => {
        check.equal(2, 3, 'two is three');
        need(check, false, 'the run was created', { status: 500 });
        check.ok(true, 'never reached');
      }),
      target(FULL),
    );
    expect(row.result).toBe('executed-fail');
    expect(row.assertions, 'the failed precondition fails the leg but is not an assertion').toBe(1);
    expect(row.detail).toMatch(/two is three[\s\S]*the run was created: does not hold; saw \{"status":500\}/);
  });

  it('counts a precondition as a precondition, not an assertion, so a leg resting on preconditions alone is a Test bug', async () => {
    let counted: { assertions: number; preconditions: number } | undefined;
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => {
        need(check, true, 'the run was created');
        need(check, 'run-1', 'the run has an id');
        for (const expected of [] as number[]) check.equal(expected, expected, 'never reached: the data is empty');
        counted = { assertions: check.assertions, preconditions: check.preconditions };
      }),
      target(FULL),
    );
    expect(counted).toEqual({ assertions: 0, preconditions: 2 });
    expect(row).toMatchObject({ result: 'blocked', assertions: 0, detail: 'Test bug: the leg ran and made no assertion' });
  });
});

describe('gates', () => {
  it('makes a leg inapplicable, with the missing member named, when the host does not advertise it', () => {
    expect(decideGate({ facet: ['regressionVerdict'] }, target(FULL))).toEqual({
      run: false,
      kind: 'inapplicable',
      reason: 'the host does not advertise agents.evalSuite.regressionVerdict',
      strictFails: false,
    });
    expect(decideGate({ facet: [] }, target(undefined))).toMatchObject({ kind: 'inapplicable', reason: 'the host does not advertise agents.evalSuite' });
  });

  it('makes a leg whose fixture the host does not list inapplicable, and one missing a tenant-B key blocked', () => {
    expect(decideGate({ facet: [], fixtures: ['conformance-eval-cost'] }, target(FULL))).toMatchObject({ kind: 'inapplicable', strictFails: true });
    expect(decideGate({ facet: [], tenantB: true }, target(FULL))).toMatchObject({ kind: 'blocked', strictFails: false });
    expect(decideGate({ facet: [], seams: true }, target(FULL, { seams: false }))).toMatchObject({ kind: 'blocked', strictFails: true });
  });

  it('keeps "not advertised" inapplicable under --require-behavior: an optional facet is not a failure', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => void check.ok(true, 'x'), { facet: ['regressionVerdict'] }),
      target(FULL, { requireBehavior: true }),
    );
    expect(row).toEqual({
      id: 'openwop.requirement.0244.probe',
      scenario: 'probe.test.ts',
      result: 'inapplicable',
      assertions: 0,
      detail: 'the host does not advertise agents.evalSuite.regressionVerdict',
    });
  });

  it('turns an unlisted fixture of an advertised facet into executed-fail under --require-behavior, with the reason', async () => {
    const row = await runLeg(
      'probe.test.ts',
      leg(async (check) => void check.ok(true, 'x'), { facet: [], fixtures: ['conformance-eval-cost'] }),
      target(FULL, { requireBehavior: true, names: SETTING_FLAGS }),
    );
    expect(row).toMatchObject({
      result: 'executed-fail',
      detail: 'required behaviour missing (--require-behavior): the host does not list the fixture conformance-eval-cost in discovery fixtures',
    });
    // Given no names of the command line, the row names the setting in the harness's own words.
    const unnamed = await runLeg(
      'probe.test.ts',
      leg(async (check) => void check.ok(true, 'x'), { facet: [], fixtures: ['conformance-eval-cost'] }),
      target(FULL, { requireBehavior: true }),
    );
    expect(unnamed.detail).toBe(
      'required behaviour missing (the require-behaviour setting): the host does not list the fixture conformance-eval-cost in discovery fixtures',
    );
  });

  it('makes a leg whose fixture the host cannot run inapplicable, under --require-behavior too', () => {
    const noTrajectory = target({ ...FULL, trajectory: false });
    expect(decideGate({ facet: [], fixtures: ['conformance-eval-trajectory'] }, noTrajectory)).toMatchObject({
      kind: 'inapplicable',
      reason: 'the fixture conformance-eval-trajectory uses agents.evalSuite.trajectory, which the host does not advertise',
      strictFails: false,
    });
    expect(decideGate({ facet: [], fixtures: ['conformance-eval-cost'] }, target({ ...FULL, trials: { maxTrials: 2 } }))).toMatchObject({
      kind: 'inapplicable',
      reason: "the fixture conformance-eval-cost has 3 trials, over the host's agents.evalSuite.trials.maxTrials 2",
      strictFails: false,
    });
  });

  it('refuses two legs declaring one requirement id', async () => {
    const scenario = { file: 'probe.test.ts', legs: [leg(async () => {}), leg(async () => {})] };
    await expect(runLegs([scenario], target(FULL))).rejects.toThrow(/declared in probe\.test\.ts and probe\.test\.ts/);
  });
});

const cursorReset = (await loadScenarios()).flatMap((s) => s.legs).find((l) => l.id === 'openwop.requirement.0244.fixture-cursor-reset') as HostLeg;

describe('the no-assertion guard on a host leg', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await startReferenceHost({ log: () => {}, port: 0, dbPath: ':memory:' });
  });
  afterAll(async () => {
    await host.close();
  });

  async function openReference(): Promise<OpenedTarget> {
    const opened = await openTarget({ host: { baseUrl: host.baseUrl, apiKey: host.tenants.a.apiKey }, requireBehavior: false });
    if (!opened.ok) throw new TestBug(`discovery of the reference host failed: ${opened.reason}`);
    return opened.target;
  }

  const SELECTION = 'conformance-eval-fixture-selection';

  it('passes the real fixture-cursor-reset leg on the reference host with real checks, not only its preconditions', async () => {
    const row = await runLeg('v2-eval-trajectory-trials/0244-d-fixtures.ts', cursorReset, await openReference());
    expect(row.result).toBe('executed-pass');
    expect(row.assertions).toBeGreaterThan(0);
  });

  it('reports the real fixture-cursor-reset leg as a Test bug when its fixture document states no expectedOutcomes', async () => {
    const target = await openReference();
    await seedMissingFixtures(target, [SELECTION]);
    // The host runs the suite as listed; only the harness's copy of the fixture loses its data.
    const run = await observeEvalRun(target, SELECTION);
    const emptied = { ...run, fixture: { ...run.fixture, expectedOutcomes: undefined } };
    const memo = target.memo.bind(target);
    target.memo = <T>(key: string, make: (shared: Target) => Promise<T>) => (key === `eval-run:${SELECTION}` ? Promise.resolve(emptied as T) : memo(key, make));
    const row = await runLeg('v2-eval-trajectory-trials/0244-d-fixtures.ts', cursorReset, target);
    expect(row).toEqual({
      id: 'openwop.requirement.0244.fixture-cursor-reset',
      scenario: 'v2-eval-trajectory-trials/0244-d-fixtures.ts',
      result: 'blocked',
      assertions: 0,
      detail: 'Test bug: the leg ran and made no assertion',
    });
  });
});
