// Probes `grade --events` with logs that break the shape of one run's log.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../lib/fixtures.ts';
import { cli } from '../test/support/cli.ts';
import { EventLog } from '../test/support/event-log.ts';
import type { RunEvent } from '../lib/run-event.ts';

const dir = mkdtempSync(join(tmpdir(), 'a9-'));
const COST = fixture('conformance-eval-cost');
const suitePath = join(dir, 'suite.json');
writeFileSync(suitePath, JSON.stringify(COST));
function costLog(token = 'grade-cost'): RunEvent[] {
  const log = new EventLog({ token, suiteId: COST.suite.suiteId, suiteVersion: COST.suite.version, modes: ['golden'], taskCount: 1, trialCount: 3 });
  for (const i of [0, 1, 2])
    log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
  return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
}
const base = costLog();
const clone = (e: RunEvent[]): RunEvent[] => JSON.parse(JSON.stringify(e));
const nd = (e: RunEvent[]): string => `${e.map((x) => JSON.stringify(x)).join('\n')}\n`;
const cases: Array<[string, string]> = [];
cases.push(['base', nd(base)]);
{ const e = clone(base); const other = costLog('other'); cases.push(['two runs mixed', nd([...e, ...other])]); }
{ const e = clone(base); const other = costLog('other'); const mixed = e.slice(0, 4).concat(other.slice(4)); cases.push(['two runs spliced (runId differs)', nd(mixed)]); }
{ const e = clone(base); e.splice(3, 1); cases.push(['gap', nd(e)]); }
{ const e = clone(base); e.splice(3, 0, e[3]!); cases.push(['duplicate event', nd(e)]); }
{ const e = clone(base); const [a] = e.splice(3, 1); e.splice(6, 0, a!); cases.push(['out of order', nd(e)]); }
{ const e = clone(base); e.pop(); cases.push(['cut before terminal', nd(e)]); }
{ const e = clone(base); e.splice(e.length - 2); cases.push(['cut before eval.completed', nd(e)]); }
{ const e = clone(base); const last = e[e.length - 1]!; e.push({ ...last, eventId: 'x', type: 'run.failed', sequence: last.sequence + 1, payload: {} } as RunEvent); cases.push(['after terminal', nd(e)]); }
{ const e = clone(base); const c = e.find((x) => x.type === 'eval.completed')!; (c.payload as any).aggregateScore = 0.2; (c.payload as any).passed = true; cases.push(['eval.completed disagrees', nd(e)]); }
{ const e = clone(base); e[5]!.runId = 'someone-else'; cases.push(['one event other runId', nd(e)]); }
{ const e = clone(base); const i = e.findIndex((x) => x.type === 'eval.scored'); const dup = { ...e[i]!, eventId: 'dupe', sequence: 999 } as RunEvent; e.splice(e.length - 2, 0, dup); e.forEach((x, k) => (x.sequence = k)); cases.push(['trial scored twice', nd(e)]); }
{ const e = clone(base); const i = e.findIndex((x) => x.type === 'agent.invocation-completed'); e.splice(i, 1); e.forEach((x, k) => (x.sequence = k)); cases.push(['bracket unclosed', nd(e)]); }
for (const [name, text] of cases) {
  const p = join(dir, name.replace(/\W+/g, '-') + '.ndjson');
  writeFileSync(p, text);
  const r = await cli('grade', '--suite', suitePath, '--events', p);
  let summary = '';
  try { const g = JSON.parse(r.out); summary = `passed=${g.passed} agg=${g.aggregateScore} anomalies=${JSON.stringify(g.anomalies ?? [])}`; } catch { summary = r.out.slice(0, 200); }
  console.log(`${name}: exit ${r.code}; ${r.err.trim().slice(0, 300)}\n   ${summary.slice(0, 400)}`);
}
