// The outcome a report leads with (lib/report/outcome.ts): counted before any profile is named,
// qualified when no published key backs it, and failed rows grouped by the cause explaining several.

import { describe, expect, it } from 'vitest';
import type { ProfileVerdict } from '../lib/evidence/profiles.ts';
import type { ReportRow, ReportVerdict } from '../lib/report/model.ts';
import { rootCauses, verdictHeadline } from '../lib/report/outcome.ts';

const profile = (id: string, certified: boolean): ProfileVerdict => ({
  id,
  certified,
  witnessCount: certified ? 2 : 0,
  denials: certified ? [] : [{ id: 'openwop.requirement.0244.x', reason: 'executed-fail' }],
  rows: ['openwop.requirement.0244.x'],
});
const six = (certified: number): ProfileVerdict[] => Array.from({ length: 6 }, (_, i) => profile(`openwop-eval-p${i}`, i < certified));
const verdict = (status: ReportVerdict['status'], profiles: ProfileVerdict[], extra: Partial<ReportVerdict> = {}): ReportVerdict => ({
  status,
  text: 'the words verify prints',
  profiles,
  ...extra,
});

describe('the headline', () => {
  it('counts the outcome before any profile is named', () => {
    expect(verdictHeadline(verdict('partly-certified', six(2)))).toBe('partly certified: 2 of 6 profiles');
    expect(verdictHeadline(verdict('certified', six(6)))).toBe('certified: 6 of 6 profiles');
    expect(verdictHeadline(verdict('nothing-certified', six(0)))).toBe('nothing certified: 0 of 6 profiles');
    expect(verdictHeadline(verdict('nothing-certified', []))).toBe('nothing certified: no eval profile claimed');
    expect(verdictHeadline(verdict('rejected', six(0)))).toBe('rejected: nothing certified');
    expect(verdictHeadline(verdict('no-bundle', [], { text: 'no verdict: no --certify was given' }))).toBe('no verdict: no --certify was given');
  });

  it('says self-attested when no published key backs the verdict', () => {
    expect(verdictHeadline(verdict('certified', six(6), { attestation: 'self-attested' }))).toBe('certified: 6 of 6 profiles, self-attested');
    expect(verdictHeadline(verdict('partly-certified', six(1), { attestation: 'unverified' }))).toBe('partly certified: 1 of 6 profiles, unverified');
  });
});

const row = (id: string, result: 'executed-fail' | 'blocked', detail: string): ReportRow => ({ id, scenario: 's.test.ts', result, detail, durationMs: 0 });

describe('root causes', () => {
  it('one cause explaining several rows is one group; a cause of one row stays alone', () => {
    const seams = [1, 2, 3].map((n) =>
      row(`openwop.requirement.0244.seam-${n}`, 'blocked', `the host does not mount the conformance seams profile, so leg ${n} cannot be seen`),
    );
    const lost = [1, 2].map((n) => row(`openwop.requirement.0081.lost-${n}`, 'blocked', `transport-loss: GET /runs/r${n}: ECONNRESET`));
    const single = row('openwop.requirement.0244.pass-hat-k', 'executed-fail', '0244 §B passHatK: expected 0.4, got 0.41');
    const { causes, alone } = rootCauses([single, ...lost, ...seams]);
    expect(causes.map((c) => [c.cause.split(',')[0], c.rows.length])).toEqual([
      ['the host does not mount the conformance seams profile', 3],
      ["a transport failure: the host's answer was lost (the host is not at fault for the network)", 2],
    ]);
    expect(alone).toEqual([single]);
  });

  it('two rows with the same reason word for word share a cause', () => {
    const same = [row('openwop.requirement.a', 'executed-fail', 'no tool call\nmore'), row('openwop.requirement.b', 'executed-fail', 'no tool call')];
    expect(rootCauses(same).causes).toEqual([{ cause: 'no tool call', rows: same }]);
  });
});
