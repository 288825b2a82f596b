// Probes `grade --events` with the forms the texts allow (false fails) and bad input.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../lib/fixtures.ts';
import { cli } from '../test/support/cli.ts';
import { EventLog } from '../test/support/event-log.ts';
import type { RunEvent } from '../lib/run-event.ts';

const dir = mkdtempSync(join(tmpdir(), 'a9f-'));
const COST = fixture('conformance-eval-cost');
const suitePath = join(dir, 'suite.json');
writeFileSync(suitePath, JSON.stringify(COST));
const log = new EventLog({ token: 'grade-cost', suiteId: COST.suite.suiteId, suiteVersion: COST.suite.version, modes: ['golden'], taskCount: 1, trialCount: 3 });
for (const i of [0, 1, 2]) log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
const base: RunEvent[] = log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
const js = (e: unknown) => JSON.stringify(e);
const lines = base.map(js);
const sse = (eol: string, extra = false) => base.map((e) => [...(extra ? [': c', 'retry: 5'] : []), `id: ${e.sequence}`, `event: ${e.type}`, `data: ${js(e)}`, ''].join(eol)).join(eol) + eol;
const poll = (extra: Record<string, unknown> = {}) => js({ runId: base[0]!.runId, events: base, lastSequence: base.length - 1, status: 'completed', isTerminal: true, ...extra });
const reorder = (e: RunEvent) => { const o: Record<string, unknown> = {}; for (const k of Object.keys(e).reverse()) o[k] = (e as any)[k]; return JSON.stringify(o); };
const cases: Array<[string, string | Buffer]> = [
  ['ndjson LF', lines.join('\n') + '\n'],
  ['ndjson no trailing newline', lines.join('\n')],
  ['ndjson CRLF', lines.join('\r\n') + '\r\n'],
  ['ndjson CR only', lines.join('\r') + '\r'],
  ['ndjson BOM', '\uFEFF' + lines.join('\n')],
  ['ndjson blank lines', '\n\n' + lines.join('\n\n') + '\n\n'],
  ['ndjson members reversed', base.map(reorder).join('\n')],
  ['ndjson single event?', lines[0]!],
  ['ndjson pretty-printed events (one per several lines)', base.map((e) => JSON.stringify(e, null, 2)).join('\n')],
  ['json array with whitespace', '  \n\t[ ' + lines.join(' ,\n ') + ' ]\n\n'],
  ['json array BOM CRLF', '\uFEFF[' + lines.join(',\r\n') + ']\r\n'],
  ['poll', poll()],
  ['poll extra members', poll({ nextCursor: 'x', vendor: { a: 1 } })],
  ['poll pretty', JSON.stringify(JSON.parse(poll()), null, 2)],
  ['poll isTerminal false', poll({ isTerminal: false, status: 'running' })],
  ['poll runId differs', poll({ runId: 'tenant-a/other-run-aaaaaaaaaaaaaaaa' })],
  ['sse LF', sse('\n')],
  ['sse CRLF', sse('\r\n')],
  ['sse CR', sse('\r')],
  ['sse BOM + comments, retry', '\uFEFF' + sse('\n', true)],
  ['sse no final blank line', sse('\n').replace(/\n+$/, '')],
  ['sse id mismatch', sse('\n').replace('id: 3\n', 'id: 7\n')],
  ['sse data with space-less colon', base.map((e) => `id:${e.sequence}\nevent:${e.type}\ndata:${js(e)}\n`).join('\n') + '\n'],
  ['numbers 1E2/-0.0', lines.join('\n').replace('"inputTokens":200', '"inputTokens":2E2').replace('"schemaVersion":1', '"schemaVersion":1.0')],
  ['invalid UTF-8', Buffer.concat([Buffer.from(lines.slice(0, 3).join('\n') + '\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(lines.slice(3).join('\n'))])],
  ['invalid UTF-8 inside a string', Buffer.from(lines.join('\n').replace('within budget', 'within \udcff budget'))],
  ['deep nesting ndjson', '['.repeat(100000) + ']'.repeat(100000)],
  ['deep nesting object line', '{"type":"x","payload":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) + '}\n' + lines[0]],
  ['empty', ''],
  ['only BOM', '\uFEFF'],
  ['only whitespace CR', '\r\r\r'],
  ['NUL bytes', '\0\0\0'],
  ['huge single line', '{"type":"run.started","payload":{"x":"' + 'a'.repeat(50_000_000) + '"}}'],
];
for (const [name, text] of cases) {
  const p = join(dir, name.replace(/\W+/g, '-') + '.txt');
  writeFileSync(p, text);
  const t0 = Date.now();
  let r;
  try { r = await cli('grade', '--suite', suitePath, '--events', p); } catch (e) { console.log(`${name}: THREW ${(e as Error).stack?.slice(0, 300)}`); continue; }
  let summary = '';
  try { const g = JSON.parse(r.out); summary = `agg=${g.aggregateScore} cost=${g.totalCostUsd} anomalies=${(g.anomalies ?? []).length}`; } catch { summary = r.out.slice(0, 100); }
  console.log(`${name}: exit ${r.code} ${Date.now() - t0}ms; ${r.err.trim().slice(0, 250)} | ${summary}`);
}
// a directory, a fifo
mkdirSync(join(dir, 'adir'));
for (const p of [join(dir, 'adir'), '/dev/null', '/proc/self/status']) {
  const r = await cli('grade', '--suite', suitePath, '--events', p);
  console.log(`${p}: exit ${r.code}; ${r.err.trim().slice(0, 200)}`);
}
execFileSync('mkfifo', [join(dir, 'fifo')]);
{ const t0 = Date.now(); const r = await cli('grade', '--suite', suitePath, '--events', join(dir, 'fifo')); console.log(`fifo: exit ${r.code} ${Date.now() - t0}ms; ${r.err.trim().slice(0, 200)}`); }
