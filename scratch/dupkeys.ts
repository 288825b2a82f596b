// Lists archived requests asked more than once whose answers differ: `npx tsx scratch/dupkeys.ts FILE`
import { readFileSync } from 'node:fs';
import { requestKey, describeRequest } from '../lib/archive/request-key.ts';
const { har } = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const groups = new Map<string, any[]>();
for (const e of har.log.entries) {
  const url = new URL(e.request.url);
  const r = { method: e.request.method, target: url.pathname + url.search, headers: e.request.headers.map((h: any) => [h.name, h.value]), body: e.request.postData?.text ?? '' };
  const k = requestKey(r);
  (groups.get(k) ?? groups.set(k, []).get(k)!).push({ e, r });
}
let n = 0;
for (const [, g] of groups) {
  if (g.length < 2) continue;
  const answers = new Set(g.map(({ e }) => `${e.response.status} ${e.response.content.text}`));
  if (process.env.SAME) {
    // Only senders that asked one name more than once, their answers differing.
    const by = new Map<string, any[]>();
    for (const x of g) (by.get(x.e._sentBy) ?? by.set(x.e._sentBy, []).get(x.e._sentBy)!).push(x);
    for (const [who, xs] of by) if (xs.length > 1 && new Set(xs.map(({ e }: any) => `${e.response.status} ${e.response.content.text}`)).size > 1)
      console.log(`SAME${xs.some(({ e }: any, i: number) => i > 0 && Date.parse(e.startedDateTime) < Date.parse(xs[i - 1].e.startedDateTime) + xs[i - 1].e.time) ? ' OVERLAP' : ''} ${who} ${xs.length}× ${describeRequest(xs[0].r).slice(0, 120)} :: ${xs.map(({ e }: any) => `${e.startedDateTime.slice(14)}+${Math.round(e.time)}ms ${e.response.status}`).join(' | ')}`);
    continue;
  }
  n++;
  if (answers.size < 2 && !process.env.ALL) continue;
  console.log(`${g.length}× ${describeRequest(g[0].r)}`);
  for (const { e } of g) console.log(`   ${e.startedDateTime} [${e._sentBy ?? '-'}] ${e.response.status} ${String(e.response.content.text).slice(0, 110)}`);
}
console.log(`${n} keys asked more than once`);
