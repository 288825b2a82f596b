// Finding a check by its rule name: for every rule of every requirement id that `run --list`
// prints, `grep -rn <rule>` finds the line that checks it. A rule a leg declares is written in
// its scenario module (its `rules` entry, the `check.rule('…')` that switches to it, or the data
// row that names it); a served-fact rule is written at the `fact('served-…')` that checks it
// (scenarios/support/served-facts/) as well as in the table (lib/ledger/served-facts.ts); a rule of
// the route table is written there (lib/routes/table.ts), where its route is; the implicit rule
// `main` of a leg that declares none is the leg itself, found by its id.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVED_FACTS, type ServedRule } from '../lib/ledger/served-facts.ts';
import { loadScenarios } from '../scenarios/index.ts';
import { ruleCatalogue, shortId } from '../lib/traceability.ts';

const ROOT = new URL('../', import.meta.url);
const scenarios = await loadScenarios();

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const servedSources = sources(new URL('scenarios/support/served-facts/', ROOT).pathname).map((file) => readFileSync(file, 'utf8'));
/** The route table: a route's rules (`route-…`, `foreign-…`) are written there, and its legs take them from it. */
const routeTable = readFileSync(new URL('lib/routes/table.ts', ROOT), 'utf8');
const moduleText = (file: string) => readFileSync(new URL(`scenarios/${file}`, ROOT), 'utf8');
/** The rule written out: quoted, or as an unquoted key of a `rules` object. */
const written = (text: string, rule: string) => text.includes(`'${rule}'`) || new RegExp(`(^|[\\s{,])${rule}:`, 'm').test(text);

describe('rule names', () => {
  it('are each written literally where they are checked, for every rule of every id run --list prints', () => {
    const rules = ruleCatalogue(scenarios);
    const missing: string[] = [];
    for (const scenario of scenarios) {
      const text = moduleText(scenario.file);
      for (const leg of scenario.legs.filter((l) => !l.serverFree)) {
        const mine = [...rules.keys()].filter((name) => name.startsWith(`${shortId(leg.id)}/`)).map((name) => name.slice(name.indexOf('/') + 1));
        expect(mine.length, `${leg.id} lists no rule`).toBeGreaterThan(0);
        for (const rule of mine) {
          if (rule in SERVED_FACTS) {
            if (!servedSources.some((source) => source.includes(`'${rule}'`)))
              missing.push(`${leg.id}/${rule}: no fact('${rule}') in scenarios/support/served-facts/`);
          } else if (rule === 'main' && leg.rules === undefined) {
            if (!text.includes(`'${leg.id}'`) && !text.includes(`'${shortId(leg.id)}'`))
              missing.push(`${leg.id}/main: the id is not written in ${scenario.file}`);
          } else if (!written(text, rule) && !written(routeTable, rule))
            missing.push(`${leg.id}/${rule}: not written in ${scenario.file} nor in lib/routes/table.ts`);
        }
      }
    }
    expect(missing, 'write each rule name literally where it is checked (no computed names)').toEqual([]);
  });

  it('of the served facts are charged to an id some leg declares, and checked by one line each', () => {
    const ids = new Set(scenarios.flatMap((s) => s.legs.map((leg) => leg.id)));
    for (const rule of Object.keys(SERVED_FACTS) as ServedRule[]) {
      expect(ids.has(SERVED_FACTS[rule].id), `${rule} is charged to ${SERVED_FACTS[rule].id}, which no leg declares`).toBe(true);
      expect(rule.startsWith('served-'), `${rule}: a served-fact rule is named served-…`).toBe(true);
    }
  });

  it('are never computed from another name', () => {
    const offenders = sources(new URL('scenarios/', ROOT).pathname)
      .concat(sources(new URL('lib/', ROOT).pathname), sources(new URL('commands/', ROOT).pathname))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
          .filter(({ line }) => /\bservedRule\(|`served-\$\{/.test(line))
          .map(({ at }) => at),
      );
    expect(offenders, "write the rule name out: fact('served-trial-stats')").toEqual([]);
  });
});
