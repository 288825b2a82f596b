// Findings: checks made outside a leg, on a run some leg created, and charged to the requirement
// id of the clause they witness, whichever leg's run showed them. The runner folds them into
// the rows once every leg has run (see applyFindings), so a defect seen on any fixture fails the
// id it breaks.

import type { LedgerRow } from '../evidence/types.ts';
import { createChecks, type Checks } from './leg.ts';
import { clipDetail } from './detail.ts';

export class Findings {
  readonly #byId = new Map<string, Checks>();
  /** Checks of other Findings adopted whole (a generated suite's, once it has run). */
  readonly #adopted: Findings[] = [];

  /** The checks charged to `id`; every message starts with `prefix` (the host). */
  checksFor(id: string, prefix: string): Checks {
    let checks = this.#byId.get(id);
    if (checks === undefined) {
      checks = createChecks(prefix);
      this.#byId.set(id, checks);
    }
    return checks;
  }

  /** Counts `other`'s checks as these: a leg judges a run apart first, then charges what it found. */
  adopt(other: Findings): void {
    this.#adopted.push(other);
  }

  /** Assertions made, failures found and permitted choices seen, per id (adopted findings included). */
  summary(): Map<
    string,
    { assertions: number; failures: readonly string[]; failedRules: readonly string[]; checkedRules: readonly string[]; observations: readonly string[] }
  > {
    const out = new Map(
      [...this.#byId].map(([id, checks]) => [
        id,
        {
          assertions: checks.assertions,
          failures: checks.failures,
          failedRules: checks.failedRules,
          checkedRules: checks.checkedRules,
          observations: checks.observations,
        },
      ]),
    );
    for (const other of this.#adopted) {
      for (const [id, found] of other.summary()) {
        const mine = out.get(id);
        out.set(
          id,
          mine === undefined
            ? found
            : {
                assertions: mine.assertions + found.assertions,
                failures: [...mine.failures, ...found.failures],
                failedRules: [...new Set([...mine.failedRules, ...found.failedRules])],
                checkedRules: [...new Set([...mine.checkedRules, ...found.checkedRules])],
                observations: [...new Set([...mine.observations, ...found.observations])],
              },
        );
      }
    }
    return out;
  }
}

/**
 * Folds findings into rows. An executed row gains the findings' assertions; any failure makes
 * the row `executed-fail` with the failures in its detail — also a row that did not run (its
 * own leg was inapplicable or blocked), since a served fact broke its clause all the same.
 */
export function applyFindings(rows: readonly LedgerRow[], findings: Findings | undefined): LedgerRow[] {
  if (findings === undefined) return [...rows];
  const byId = findings.summary();
  return rows.map((row) => {
    const found = byId.get(row.id);
    if (found === undefined) return row;
    const executed = row.result === 'executed-pass' || row.result === 'executed-fail';
    // The choices a finding saw join the row's own, as the leg's `saw` does (runner.ts), and a
    // rule the leg never reached but a finding checked has run after all.
    const seen = [...new Set([...((row.evidence?.latitude as string[] | undefined) ?? []), ...found.observations])];
    const notRun = ((row.evidence?.rulesNotRun as string[] | undefined) ?? []).filter((rule) => !found.checkedRules.includes(rule));
    const { latitude: _latitude, rulesNotRun: _notRun, ...rest } = row.evidence ?? {};
    const evidence = { ...rest, ...(executed && seen.length > 0 ? { latitude: seen } : {}), ...(notRun.length > 0 ? { rulesNotRun: notRun } : {}) };
    const { evidence: _evidence, ...bare } = row;
    const folded = { ...bare, ...(Object.keys(evidence).length > 0 ? { evidence } : {}) };
    if (found.failures.length === 0) return executed ? { ...folded, assertions: (row.assertions ?? 0) + found.assertions } : row;
    const own = row.result === 'executed-fail' && row.detail ? [row.detail] : [];
    const text = [...own, ...found.failures].join('\n');
    const ownRules = (row.result === 'executed-fail' ? (row.evidence?.failedRules as string[] | undefined) : undefined) ?? [];
    return {
      ...folded,
      result: 'executed-fail',
      assertions: (executed ? (row.assertions ?? 0) : 0) + found.assertions,
      detail: clipDetail(text),
      evidence: { ...evidence, failedRules: [...new Set([...ownRules, ...found.failedRules])] },
    };
  });
}
