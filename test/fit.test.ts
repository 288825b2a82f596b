// lib/ledger/fit.ts: one fit rule over every limit of agents.evalSuite, read from the discovery
// schema. Each shipped limit turns a fixture past it into a named misfit; a member added to a copy
// of the schema is a limit with no new code; every member of the facet is classified.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, type FixtureDocument } from '../lib/fixtures.ts';
import { facetLimits, fixtureMisfitOf, shippedFacetLimits, valuesAt } from '../lib/ledger/fit.ts';

const SCHEMA = JSON.parse(readFileSync(new URL('../schemas/v2/capabilities.schema.json', import.meta.url), 'utf8')) as {
  $defs: { evalSuiteFacet: Record<string, unknown> & { properties: Record<string, unknown> } };
};

const ROOMY = {
  modes: ['golden', 'rubric', 'regression', 'adversarial', 'live-shadow'],
  maxTasksPerSuite: 100,
  maxCostUsdPerSuite: 100,
  trajectory: true,
  trials: { maxTrials: 10 },
  fixtureMatching: true,
  regressionVerdict: true,
  recordedFixtures: true,
};

describe('the fit rule over the advertised limits', () => {
  it('classifies every member of agents.evalSuite in the shipped schema', () => {
    const limits = shippedFacetLimits();
    expect(limits.filter((limit) => limit.unclassified !== undefined).map((limit) => limit.unclassified)).toEqual([]);
    expect(limits.map((limit) => `${limit.path.join('.')}:${limit.kind}`).sort()).toEqual(
      [
        'modes:subset',
        'maxTasksPerSuite:count-at-most',
        'maxCostUsdPerSuite:at-most',
        'trajectory:feature',
        'trials:feature',
        'trials.maxTrials:at-most',
        'fixtureMatching:feature',
        'regressionVerdict:feature',
        'recordedFixtures:feature',
        'fixtureErrors:feature',
      ].sort(),
    );
  });

  it('names each limit a fixture goes past, and nothing on a roomy host', () => {
    const trials = fixture('conformance-eval-trials');
    const verdict = fixture('conformance-eval-verdict-baseline');
    expect(fixtureMisfitOf(ROOMY, trials)).toBeUndefined();
    expect(fixtureMisfitOf({ ...ROOMY, maxTasksPerSuite: 4 }, verdict)).toBe(
      "the fixture conformance-eval-verdict-baseline has 12 tasks, over the host's agents.evalSuite.maxTasksPerSuite 4",
    );
    expect(fixtureMisfitOf({ ...ROOMY, modes: ['golden'] }, verdict)).toBe(
      'the fixture conformance-eval-verdict-baseline runs the regression mode, not among the host\'s agents.evalSuite.modes ["golden"]',
    );
    expect(fixtureMisfitOf({ ...ROOMY, trials: { maxTrials: 2 } }, trials)).toBe(
      "the fixture conformance-eval-trials has 3 trials, over the host's agents.evalSuite.trials.maxTrials 2",
    );
    expect(fixtureMisfitOf({ ...ROOMY, maxCostUsdPerSuite: 0.005 }, trials)).toBe(
      "the fixture conformance-eval-trials has 0.0084 USD of expected cost, over the host's agents.evalSuite.maxCostUsdPerSuite 0.005",
    );
    // A ceiling met exactly may be held either way (RFC 0081 §D), so that fixture does not fit; a
    // count limit met exactly is within it.
    expect(fixtureMisfitOf({ ...ROOMY, maxCostUsdPerSuite: 0.0084 }, trials)).toBe(
      "the fixture conformance-eval-trials has 0.0084 USD of expected cost, exactly the host's agents.evalSuite.maxCostUsdPerSuite, which the host may hold either way",
    );
    expect(fixtureMisfitOf({ ...ROOMY, maxCostUsdPerSuite: 0.0085 }, trials)).toBeUndefined();
    expect(fixtureMisfitOf({ ...ROOMY, trials: { maxTrials: 3 } }, trials)).toBeUndefined();
    expect(fixtureMisfitOf({ ...ROOMY, trials: undefined }, trials)).toBe(
      'the fixture conformance-eval-trials uses agents.evalSuite.trials, which the host does not advertise',
    );
    // A leg that goes past a limit on purpose names it among its probes.
    expect(fixtureMisfitOf({ ...ROOMY, maxCostUsdPerSuite: 0.005 }, trials, ['maxCostUsdPerSuite'])).toBeUndefined();
    // An unadvertised ceiling holds nothing back (RFC 0081 §D: optional).
    expect(fixtureMisfitOf({ ...ROOMY, maxTasksPerSuite: undefined }, verdict)).toBeUndefined();
    // But modes left out is no mode advertised (docs/wire.md §2): every mode is refused at create.
    expect(fixtureMisfitOf({ ...ROOMY, modes: undefined }, verdict)).toBe(
      "the fixture conformance-eval-verdict-baseline runs the golden, regression modes, not among the host's agents.evalSuite.modes (absent: no mode advertised)",
    );
  });

  it('covers a member added to a copy of the schema, with no new code', () => {
    const copy = structuredClone(SCHEMA.$defs.evalSuiteFacet);
    copy.properties.maxToolResponsesPerTask = {
      type: 'integer',
      minimum: 1,
      _bounds: { measure: 'count-at-most', at: '/suite/tasks/*/fixtures/toolResponses', noun: 'fixture entries on one task' },
    };
    copy.properties.judgeSelection = { type: 'boolean' };
    const limits = facetLimits(copy);
    const selection = fixture('conformance-eval-fixture-selection');
    const entries = Math.max(...valuesAt(selection, '/suite/tasks/*/fixtures/toolResponses').map((list) => (list as unknown[]).length));
    expect(entries).toBeGreaterThan(1);
    expect(fixtureMisfitOf({ ...ROOMY, maxToolResponsesPerTask: entries }, selection, [], limits)).toBeUndefined();
    expect(fixtureMisfitOf({ ...ROOMY, maxToolResponsesPerTask: entries - 1 }, selection, [], limits)).toBe(
      `the fixture conformance-eval-fixture-selection has ${entries} fixture entries on one task, over the host's agents.evalSuite.maxToolResponsesPerTask ${entries - 1}`,
    );
    const needsJudge = { ...selection, requires: { ...selection.requires, judgeSelection: true } } as FixtureDocument;
    expect(fixtureMisfitOf(ROOMY, needsJudge, [], limits)).toBe(
      'the fixture conformance-eval-fixture-selection uses agents.evalSuite.judgeSelection, which the host does not advertise',
    );
    // A numeric member without the annotation is named as unclassified, never silently ignored.
    copy.properties.maxWidgets = { type: 'integer' };
    expect(facetLimits(copy).find((limit) => limit.path[0] === 'maxWidgets')?.unclassified).toMatch(/no _bounds annotation/);
  });
});
