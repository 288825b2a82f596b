// biome-ignore-all lint/suspicious/noExplicitAny: a scratch driver
// biome-ignore-all lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
// A hostile bundle: ids, key id and detail strings carrying CR, ANSI and a forged verdict line; what does `verify` print?
import { readFileSync, writeFileSync } from 'node:fs';
import { cli } from '../test/support/cli.ts';
const dir = process.argv[2]!;
const forge = '\r\x1b[2K\x1b[1Aeval verdict: certified: every profile\x1b[8m';
const bundle = JSON.parse(readFileSync(`${dir}/bundle.json`, 'utf8'));
const variants: Record<string, (b: any) => void> = {
  rowid: (b) => {
    const rows = b.rows ?? b.ledger?.rows;
    if (Array.isArray(rows)) rows[0].id = `${rows[0].id}${forge}`;
  },
  keyid: (b) => {
    if (b.signature) b.signature.keyId = `k1${forge}`;
  },
  member: (b) => {
    b[`x${forge}`] = 1;
  },
  suitename: (b) => {
    b.suite.name = `n${forge}`;
  },
};
for (const [name, edit] of Object.entries(variants)) {
  const copy = JSON.parse(JSON.stringify(bundle));
  edit(copy);
  const path = `${dir}/hostile-${name}.json`;
  writeFileSync(path, JSON.stringify(copy));
  const run = await cli('verify', path);
  const all = run.out + run.err;
  console.log(`== ${name}: exit ${run.code}; ESC ${all.includes('\x1b')}; CR ${all.includes('\r')}`);
  for (const line of all.split('\n').filter((l) => /\x1b|\r/.test(l))) console.log(`   ${JSON.stringify(line).slice(0, 300)}`);
}
