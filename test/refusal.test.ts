// scenarios/support/refusal.ts: where a refusal may name the field it refuses (CONTRACT §2,
// RFC 0244 §G), and that an echo of the request never counts as naming it.

import { describe, expect, it } from 'vitest';
import { refusalNamesField } from '../scenarios/support/refusal.ts';

const REF = 'conformance-eval-trials';

describe('refusalNamesField', () => {
  it('accepts the field in a details path, a details pointer, a details key or the message', () => {
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { field: 'trials.count' } }, 'trials.count')).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { pointer: '/suite/trials/count' } }, 'trials.count')).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { errors: [{ path: '/modes/1' }] } }, 'modes')).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { modes: ['adversarial'] } }, 'modes')).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'modes: adversarial is not advertised' }, 'modes')).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'the suite sets /trials/count above 1' }, 'trials.count')).toBe(true);
    expect(
      refusalNamesField({ error: 'validation_error', message: 'refused', details: { field: 'tasks[0].fixtures.toolResponses[1].args' } }, 'toolResponses.args'),
    ).toBe(true);
    expect(
      refusalNamesField({ error: 'validation_error', message: 'tasks[0].fixtures.toolResponses[1].args: needs fixtureMatching' }, 'toolResponses.args'),
    ).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused at /tasks/0/fixtures/toolResponses/1/args' }, 'toolResponses.args')).toBe(true);
  });

  it('accepts a path array, whole or prefixed, with item indices', () => {
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { errors: [{ loc: ['trials', 'count'] }] } }, 'trials.count')).toBe(
      true,
    );
    expect(
      refusalNamesField(
        { error: 'validation_error', message: 'refused', details: { errors: [{ loc: ['body', 'suite', 'trials', 'count'] }] } },
        'trials.count',
      ),
    ).toBe(true);
    expect(
      refusalNamesField(
        { error: 'validation_error', message: 'refused', details: { path: ['tasks', 0, 'fixtures', 'toolResponses', 1, 'args'] } },
        'toolResponses.args',
      ),
    ).toBe(true);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { loc: ['trials', 'k'] } }, 'trials.count')).toBe(false);
    expect(refusalNamesField({ error: 'validation_error', message: 'refused', details: { loc: ['count', 'trials'] } }, 'trials.count')).toBe(false);
  });

  it('refuses another field, a word inside another name, and an echo of the request', () => {
    expect(refusalNamesField({ error: 'validation_error', message: 'agentId: no such agent', details: { field: 'agentId' } }, 'modes')).toBe(false);
    expect(
      refusalNamesField(
        { error: 'validation_error', message: 'the suite uses unsupported trials', details: { suiteId: 'core.conformance.evals.trials' } },
        'trials.count',
      ),
    ).toBe(false);
    expect(refusalNamesField({ error: 'validation_error', message: `${REF} is refused`, details: { evalSuiteRef: REF } }, 'trials', [REF])).toBe(false);
    expect(refusalNamesField({ error: 'validation_error', message: 'the submodes member is unknown' }, 'modes')).toBe(false);
    expect(
      refusalNamesField(
        {
          error: 'validation_error',
          message: 'tasks[0].fixtures.toolResponses[1].response is refused',
          details: { field: 'tasks[0].fixtures.toolResponses[1].response' },
        },
        'toolResponses.args',
      ),
    ).toBe(false);
    expect(refusalNamesField(undefined, 'modes')).toBe(false);
  });
});
