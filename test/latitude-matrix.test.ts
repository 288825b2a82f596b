// The latitude matrix (CONTRACT §6): a harness that fails a conformant host is as useless as one
// that passes a broken host. Each honest variant (hosts/honest-variants/catalogue.ts) is the
// reference host with one choice the RFC text allows switched; certified in-process, with and
// without --require-behavior, it gets no `executed-fail` and no `blocked` row, and every row
// that does not apply says why.

import { describe, expect, it } from 'vitest';
import type { LedgerRow } from '../lib/evidence/types.ts';
import { loadScenarios } from '../lib/scenarios.ts';
import { certifyConfiguration } from './support/matrix-harness.ts';
import { HONEST_VARIANTS } from '../hosts/honest-variants/catalogue.ts';
import { KNOWN_BAD_HOSTS } from '../hosts/known-bad/catalogue.ts';

const scenarios = await loadScenarios();

function offences(rows: Map<string, LedgerRow>): string[] {
  const out: string[] = [];
  for (const row of rows.values()) {
    if (row.result === 'executed-fail' || row.result === 'blocked') out.push(`${row.id}: ${row.result}: ${row.detail ?? ''}`);
    else if (row.result !== 'executed-pass' && !(row.detail ?? '').trim()) out.push(`${row.id}: ${row.result} without a reason`);
  }
  return out;
}

/** Every choice the rows say they saw, and every reason a row did not apply. */
function shown(rows: Map<string, LedgerRow>): string[] {
  return [...rows.values()].flatMap((row) => [
    ...((row.evidence?.latitude as string[] | undefined) ?? []),
    ...(row.result === 'inapplicable' ? [row.detail ?? ''] : []),
  ]);
}

describe('the latitude matrix: every honest variant certifies clean', () => {
  for (const variant of HONEST_VARIANTS) {
    for (const requireBehavior of [false, true]) {
      // Concurrent: a variant that makes the harness wait (Retry-After) costs wall time, not CPU.
      it.concurrent(`${variant.name}${requireBehavior ? ' (--require-behavior)' : ''}: ${variant.choice}`, async ({ expect }) => {
        const run = await certifyConfiguration(variant.options, scenarios, { wire: variant.wire, requireBehavior });
        expect(run.trafficViolations, `${variant.name} sends what the schemas refuse`).toEqual([]);
        expect(offences(run.rows), variant.name).toEqual([]);
        expect(
          [...run.rows.values()].some((row) => row.result === 'executed-pass'),
          `${variant.name}: no row ran`,
        ).toBe(true);
        if (variant.injects) expect(run.injected, `${variant.name}: the proxy injected nothing`).toBeGreaterThan(0);
        if (variant.shows !== undefined)
          expect(shown(run.rows), `${variant.name}: no row shows the choice was met`).toContainEqual(expect.stringContaining(variant.shows));
      });
    }
  }

  it('the check itself fails a known-bad host: a broken clause is an offence', async () => {
    const liar = KNOWN_BAD_HOSTS.find((host) => host.name === 'summary-liar')!;
    const run = await certifyConfiguration(liar.options, scenarios);
    expect(offences(run.rows)).toContainEqual(expect.stringMatching(/^openwop\.requirement\.0081\.summary-served: executed-fail/));
  });

  it('names each variant once, in kebab-case, with a one-line choice and its clause', () => {
    expect(new Set(HONEST_VARIANTS.map((v) => v.name)).size).toBe(HONEST_VARIANTS.length);
    for (const variant of HONEST_VARIANTS) {
      expect(variant.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(variant.choice, variant.name).toMatch(/^[^\n]{10,160}$/);
      expect(variant.clause, variant.name).toMatch(/^(RFC \d{4}|OpenWOP v2)[^\n]*$/);
    }
  });
});
