// Differential check (scratch, not a test of the tree): the content walkers as on main against this branch's,
// on random JSON values: the same messages and details from assertContentFree, the same list from contentInStrings.
import * as oldC from './old/content.ts';
import * as oldK from './old/classes.ts';
import * as newC from '../scenarios/support/content.ts';
import * as newK from '../scenarios/support/served-facts/classes.ts';
import { loadFixtures } from '../lib/fixtures.ts';

let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const docs = [...loadFixtures().values()];
const keys = ['output', 'taskId', 'a', 'label', 'inputs', 'scoreLabel', 'suiteId', 'x y', 'tools', 'method'];
function value(depth: number, doc: any): unknown {
  const r = rnd();
  if (depth > 4 || r < 0.3) {
    const s = rnd();
    if (s < 0.2) return Math.floor(rnd() * 100);
    if (s < 0.3) return rnd() < 0.5;
    if (s < 0.35) return null;
    const content = newC.suiteContentStrings(doc);
    if (s < 0.6 && content.length > 0) return `x ${content[Math.floor(rnd() * content.length)]} y`;
    return `word-${Math.floor(rnd() * 10)}`;
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1, doc));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < rnd() * 5; i++) o[keys[Math.floor(rnd() * keys.length)]!] = value(depth + 1, doc);
  return o;
}
const recorder = () => { const log: unknown[] = []; return { log, check: { ok: (cond: boolean, msg: string, detail?: unknown) => log.push([cond, msg, detail]) } as any }; };
let n = 0, hits = 0;
for (let i = 0; i < 20000; i++) {
  const doc = docs[i % docs.length]!;
  const v = value(0, doc);
  const a = recorder(), b = recorder();
  oldC.assertContentFree(a.check, v, doc, 'w');
  newC.assertContentFree(b.check, v, doc, 'w');
  if (JSON.stringify(a.log) !== JSON.stringify(b.log)) throw new Error(`assertContentFree differs on ${JSON.stringify(v)}`);
  if ((a.log as any[]).some((e) => !e[0])) hits++;
  const x = oldK.contentInStrings(v, doc, []), y = newK.contentInStrings(v, doc, []);
  if (JSON.stringify(x) !== JSON.stringify(y)) throw new Error(`contentInStrings differs on ${JSON.stringify(v)}`);
  if (x.length) hits++;
  n++;
}
console.log(`${n} values, the same; ${hits} with a finding`);
