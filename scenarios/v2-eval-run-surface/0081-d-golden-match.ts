// v2-eval-run-surface/0081-d-golden-match — RFC 0081 §D: the golden match strategies.
//
// Legs:
//   1. openwop.requirement.0081.golden-match-strategies  exact is the whole string, case included; contains is a
//      substring; json-match is JSON deep equality (key order ignored, array order kept, no extra
//      member of the output admitted, at any depth); a null answer matches only as the text "null"
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// The leg seeds a suite written for it through the seams (../support/seeded-run.ts).
// Every task's answer is fixed by its script (CONTRACT §3), so each expected score is known by
// construction, and the served one is compared with it.

import { defineScenario } from '../../lib/ledger/scenario.ts';
import { observeSeededRun } from '../support/seeded-run.ts';
import { checkProbes, golden, probeSuite, type ProbeTask } from '../support/probe-suites.ts';

const GOLDEN_TASKS: ProbeTask[] = [
  {
    taskId: 'exact-equal',
    rule: 'exact',
    output: 'refund approved',
    expected: golden('exact', 'refund approved'),
    score: 1,
    passed: true,
    why: 'the same string',
  },
  {
    taskId: 'exact-case',
    rule: 'exact',
    output: 'Refund approved',
    expected: golden('exact', 'refund approved'),
    score: 0,
    passed: false,
    why: 'exact compares the whole string, case included',
  },
  {
    taskId: 'contains-hit',
    rule: 'contains',
    output: 'your refund was approved today',
    expected: golden('contains', 'approved'),
    score: 1,
    passed: true,
    why: 'the value is a substring of the answer',
  },
  {
    taskId: 'contains-miss',
    rule: 'contains',
    output: 'your refund is pending',
    expected: golden('contains', 'approved'),
    score: 0,
    passed: false,
    why: 'the value is no substring of the answer',
  },
  {
    taskId: 'json-key-order',
    rule: 'json-match',
    output: { b: 2, a: 1 },
    expected: golden('json-match', { a: 1, b: 2 }),
    score: 1,
    passed: true,
    why: 'JSON deep equality ignores key order',
  },
  {
    taskId: 'json-extra-member',
    rule: 'json-match',
    output: { a: 1, b: 2 },
    expected: golden('json-match', { a: 1 }),
    score: 0,
    passed: false,
    why: 'an output member the value lacks is no deep equality',
  },
  {
    taskId: 'json-array-order',
    rule: 'json-match',
    output: { n: [2, 1] },
    expected: golden('json-match', { n: [1, 2] }),
    score: 0,
    passed: false,
    why: 'arrays keep their order',
  },
  {
    taskId: 'json-nested-extra-member',
    rule: 'json-match',
    output: { order: { id: 'o-1', status: 'open' }, lines: [{ sku: 'a', qty: 1 }] },
    expected: golden('json-match', { order: { id: 'o-1' }, lines: [{ sku: 'a', qty: 1 }] }),
    score: 0,
    passed: false,
    why: 'deep equality holds at every depth: a nested member the value lacks is no match',
  },
  {
    taskId: 'contains-null-answer',
    rule: 'null-answer',
    output: null,
    expected: golden('contains', 'approved'),
    score: 0,
    passed: false,
    why: 'a null answer is the text "null", which does not contain the value',
  },
];

export default defineScenario('v2-eval-run-surface/0081-d-golden-match.ts', [
  {
    id: 'openwop.requirement.0081.golden-match-strategies',
    title: 'a golden answer is scored by its strategy: exact whole and case-sensitive, contains a substring, json-match deep equality',
    clause: 'RFC 0081 §D (golden: exact/contains/json-match against expected), CONTRACT §6 (Output score)',
    rules: {
      exact: 'RFC 0081 §D (exact), CONTRACT §6',
      contains: 'RFC 0081 §D (contains), CONTRACT §6',
      'json-match': 'RFC 0081 §D (json-match), CONTRACT §6 (JSON deep equality, at every depth)',
      'null-answer': 'RFC 0081 §D (golden against expected), CONTRACT §6 (the string form of a non-string is its JSON text: null is "null")',
    },
    needs: { facet: [], modes: ['golden'] },
    chain: 4,
    async run(check, target) {
      const doc = probeSuite('conformance-eval-golden-strategies', 'core.conformance.evals.golden-strategies', ['golden'], GOLDEN_TASKS);
      checkProbes(check, await observeSeededRun(check, target, doc), GOLDEN_TASKS);
    },
  },
]);
