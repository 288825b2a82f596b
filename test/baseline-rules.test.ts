// An expected failure that names one rule (`id/rule`) is judged only when the rule ran: a leg
// records the declared rules it made no check of (`evidence.rulesNotRun`, lib/ledger/runner.ts),
// and an entry naming such a rule is "not applied … the rule was not run", never "stale … it
// passed" nor a tolerated failure. A finding that checks the rule later counts as its run.

import { describe, expect, it } from 'vitest';
import { applyBaseline, formatBaseline } from '../lib/ledger/baseline.ts';
import { Findings, applyFindings } from '../lib/ledger/findings.ts';
import { runLeg } from '../lib/ledger/runner.ts';
import type { Checks } from '../lib/ledger/leg.ts';
import type { ServerFreeLeg } from '../lib/ledger/scenario.ts';

const ID = 'openwop.requirement.0244.rules-probe';

/** A server-free leg with two rules that fails `first` and, with `stopEarly`, never reaches `second`. */
function twoRules(outcome: 'fail-first' | 'pass-first', stopEarly: boolean): ServerFreeLeg {
  return {
    id: ID,
    title: 'a probe with two rules',
    clause: 'RFC 0244 §B',
    serverFree: true,
    rules: { first: 'RFC 0244 §B', second: 'RFC 0244 §C' },
    run(check: Checks) {
      if (outcome === 'fail-first') check.require(false, 'the first rule');
      else check.ok(true, 'the first rule');
      if (stopEarly) return;
      check.rule('second');
      check.ok(true, 'the second rule');
    },
  };
}

const file = 'expected-failures.json';
const listed = (rule: string) => ({ file, entries: [{ id: `${ID}/${rule}`, reason: 'known' }] });

describe('a rule the leg never reached', () => {
  it('is recorded in the row as not run, beside the rule that failed', async () => {
    const row = await runLeg('probe.ts', twoRules('fail-first', false), undefined);
    expect(row).toMatchObject({ result: 'executed-fail', evidence: { failedRules: ['first'], rulesNotRun: ['second'] } });
  });

  it('is not recorded once every rule ran', async () => {
    const row = await runLeg('probe.ts', twoRules('pass-first', false), undefined);
    expect(row.result).toBe('executed-pass');
    expect(row.evidence).toBeUndefined();
  });

  it('makes an entry naming it "not applied", not tolerated, on a failed row', async () => {
    const row = await runLeg('probe.ts', twoRules('fail-first', false), undefined);
    const outcome = applyBaseline(listed('second'), [row]);
    expect(outcome).toMatchObject({ expectedFailures: [], stale: [], notApplied: [{ id: `${ID}/second`, result: 'rule not run' }] });
    expect(formatBaseline(outcome)).toContain(
      `not applied   ${ID}/second: listed in ${file}, but the rule was not run: its row ran without reaching a check of it`,
    );
  });

  it('makes an entry naming it "not applied", not stale, on a passed row', async () => {
    const row = await runLeg('probe.ts', twoRules('pass-first', true), undefined);
    expect(row).toMatchObject({ result: 'executed-pass', evidence: { rulesNotRun: ['second'] } });
    const outcome = applyBaseline(listed('second'), [row]);
    expect(outcome.stale).toEqual([]);
    expect(outcome.notApplied).toEqual([{ id: `${ID}/second`, reason: 'known', result: 'rule not run' }]);
  });

  it('leaves an entry naming a rule that ran and passed stale', async () => {
    const row = await runLeg('probe.ts', twoRules('pass-first', false), undefined);
    expect(applyBaseline(listed('second'), [row]).stale).toEqual([{ id: `${ID}/second`, reason: 'known' }]);
  });

  it('counts as run once a finding checked it', async () => {
    const row = await runLeg('probe.ts', twoRules('pass-first', true), undefined);
    const findings = new Findings();
    const check = findings.checksFor(ID, '[probe]');
    check.rule('second');
    check.ok(true, 'the second rule, seen on another run');
    const [folded] = applyFindings([row], findings);
    expect(folded!.evidence).toBeUndefined();
    expect(applyBaseline(listed('second'), [folded!]).stale).toHaveLength(1);
  });
});
