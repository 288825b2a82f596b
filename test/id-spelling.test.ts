// One spelling of a requirement id (lib/ledger/scenario.ts): in the product code and its
// comments — commands/, lib/, scenarios/, hosts/ — an id is written in full, `openwop.requirement.<rfc>.<slug>`;
// its short form appears only as the stem of a rule, `<rfc>.<slug>/<rule>`.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shortId } from '../lib/traceability.ts';
import { loadScenarios } from '../scenarios/index.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('a requirement id', () => {
  it('is written in full in commands/, lib/, scenarios/ and hosts/, its short form only as the stem of a rule', async () => {
    const short = new Set((await loadScenarios()).flatMap((s) => s.legs.map((leg) => shortId(leg.id))));
    const bare = /(?<![\w./-])(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w/-])/g;
    const offenders = ['commands', 'lib', 'scenarios', 'hosts'].flatMap((folder) =>
      sources(join(ROOT, folder)).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => [...line.matchAll(bare)].filter((m) => short.has(m[1]!)).map((m) => `${relative(ROOT, file)}:${i + 1}: ${m[1]}`)),
      ),
    );
    expect(offenders, 'write the id in full: openwop.requirement.<rfc>.<slug>').toEqual([]);
  });
});
