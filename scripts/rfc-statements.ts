// Writes requirements/rfc-statements.json from the RFC texts:
//   npx tsx scripts/rfc-statements.ts DIR
// where DIR holds rfc-0081-*.md, rfc-0244-*.md and rfc-0252-*.md (the public OpenWOP RFC pages as
// Markdown). Each keyword sentence and resolved question (lib/rfc-statements.ts) is listed by clause,
// keywords and key, never its prose; the hand-made map of each key (`traces`: the traceability
// statements that hold it, or `notHost`: why it binds no host) is kept across runs by key, so a
// statement the texts gain is listed unmapped and test/rfc-statements.test.ts fails until it is
// mapped, and one they lose leaves the list.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../lib/package-root.ts';
import { extractStatements } from '../lib/rfc-statements.ts';
import { readRfcStatements, RFC_STATEMENTS_FILE, type MappedStatement } from '../lib/rfc-statement-map.ts';

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: npx tsx scripts/rfc-statements.ts DIR (the folder of the three RFC texts)\n');
  process.exit(2);
}
const previous = new Map(readRfcStatements().statements.map((s) => [s.key, s]));
const sources: Record<string, { file: string; sha256: string }> = {};
const statements: MappedStatement[] = [];
for (const rfc of ['0081', '0244', '0252']) {
  const file = readdirSync(dir).find((name) => name.startsWith(`rfc-${rfc}-`) && name.endsWith('.md'));
  if (file === undefined) throw new Error(`no rfc-${rfc}-*.md in ${dir}`);
  const text = readFileSync(join(dir, file), 'utf8');
  sources[rfc] = { file, sha256: createHash('sha256').update(text).digest('hex') };
  for (const found of extractStatements(rfc, text)) {
    const before = previous.get(found.key);
    statements.push({
      ...found,
      ...(before?.traces === undefined ? {} : { traces: before.traces }),
      ...(before?.notHost === undefined ? {} : { notHost: before.notHost }),
    });
  }
}
const document = { ...readRfcStatements(), sources, count: statements.length, statements };
writeFileSync(packagePath(RFC_STATEMENTS_FILE), `${JSON.stringify(document, null, 1)}\n`);
process.stdout.write(`${RFC_STATEMENTS_FILE}: ${statements.length} statements, ${statements.filter((s) => !s.traces && !s.notHost).length} unmapped\n`);
