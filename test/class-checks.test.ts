// The class checks' own helpers (issue 18): uniform refusals compared as information, and content
// looked for as slugs in every served string, labels included.

import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../lib/client/index.ts';
import type { FixtureDocument } from '../lib/fixtures.ts';
import { informationBeyondUnknown } from '../scenarios/support/refusal-information.ts';
import { contentInStrings, slug } from '../scenarios/support/served-facts/classes.ts';

const notFound = (requestId: string) => ({ error: 'not_found', message: `no such run (request ${requestId})`, details: { requestId } });

describe('a refusal compared as information', () => {
  it('equals two unknown-id refusals once their per-response noise is masked', () => {
    expect(informationBeyondUnknown(notFound('req-1'), notFound('req-22'), notFound('req-333'))).toEqual([]);
    expect(
      informationBeyondUnknown(
        { error: 'not_found', message: 'no such run' },
        { error: 'not_found', message: 'no such run' },
        { error: 'not_found', message: 'no such run' },
      ),
    ).toEqual([]);
  });

  it('keeps an id one word however many hyphens its random part holds', () => {
    const quoting = (id: string) => ({ error: 'not_found', message: `no run ${id}` });
    expect(informationBeyondUnknown(quoting('t/ab-c_d'), quoting('t/xyz'), quoting('t/q-r-s-t'))).toEqual([]);
  });

  it('finds a message that says what the uniform status and code hide', () => {
    const told = informationBeyondUnknown(notFound('req-1'), notFound('req-2'), {
      error: 'not_found',
      message: 'the run belongs to another tenant (request req-3)',
      details: { requestId: 'req-3' },
    });
    expect(told).toEqual([expect.stringMatching(/^\$\.message: "the run belongs to another tenant/)]);
  });

  it('finds a member only the foreign refusal carries, and a changed code', () => {
    expect(informationBeyondUnknown(notFound('a'), notFound('b'), { ...notFound('c'), details: { requestId: 'c', owner: 'tenant-a' } })).toEqual([
      expect.stringMatching(/^\$\.details\.owner: present for the foreign id only/),
    ]);
    expect(informationBeyondUnknown(notFound('a'), notFound('b'), { ...notFound('c'), error: 'id_tenant_mismatch' })).toEqual([
      expect.stringMatching(/^\$\.error: /),
    ]);
  });
});

describe('content looked for as slugs in every served string', () => {
  const doc = {
    id: 'conformance-eval-x',
    suite: { suiteId: 'core.conformance.evals.x', tasks: [{ taskId: 'refund', input: { steps: [], output: 'Refund approved for order O-1001' } }] },
  } as unknown as FixtureDocument;
  const decided = [{ sequence: 3, type: 'agent.decided', payload: { agentId: 'a', decision: 'the other answer, in full words' } }] as RunEvent[];

  it('finds a label that is a slug of the answer, or a cut of it', () => {
    expect(slug('Refund approved for order O-1001')).toBe('refund-approved-for-order-o-1001');
    expect(contentInStrings({ scoreLabel: 'refund-approved-for-order-o-1001' }, doc, [])).toHaveLength(1);
    expect(contentInStrings({ scoreLabel: 'refund-approved-for' }, doc, [])).toHaveLength(1);
    expect(contentInStrings({ scoreLabel: 'the-other-answer-in-full' }, doc, decided)).toHaveLength(1);
  });

  it('passes labels of the pattern that carry no content, ids, and words inside other words', () => {
    expect(contentInStrings({ scoreLabel: 'pass', taskId: 'refund', suiteId: 'core.conformance.evals.x' }, doc, decided)).toEqual([]);
    expect(contentInStrings({ scoreLabel: 'band-10', method: 'sign-test' }, doc, decided)).toEqual([]);
    expect(
      contentInStrings(
        { scoreLabel: 'another-label' },
        { ...doc, suite: { ...doc.suite, tasks: [{ taskId: 't', input: { output: 'other' } }] } } as unknown as FixtureDocument,
        [],
      ),
    ).toEqual([]);
  });
});
