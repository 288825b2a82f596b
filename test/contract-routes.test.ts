// CONTRACT.md §8 ("What each route answers") tells a vendor every request the harness makes; its
// table must name every route of lib/routes/table.ts, and no route the table does not hold (the
// hold-release seam was in the table and missing from the document).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';
import { ROUTES } from '../lib/routes/table.ts';

/** The `METHOD /path` of each row of the §8 table, as its first cell writes it. */
function documentedRoutes(): string[] {
  const text = readFileSync(packagePath('CONTRACT.md'), 'utf8');
  const section = text.slice(text.indexOf('## 8. What each route answers'));
  return [...section.matchAll(/^\| `((?:GET|POST|PUT|DELETE) [^`]+)`/gm)].map((m) => m[1]!);
}

describe('CONTRACT.md §8', () => {
  it('names every route of the route table, and only those', () => {
    const documented = new Set(documentedRoutes());
    const routes = new Set(ROUTES.map((route) => `${route.method} ${route.template}`));
    expect([...routes].filter((route) => !documented.has(route))).toEqual([]);
    expect([...documented].filter((route) => !routes.has(route))).toEqual([]);
  });
});
