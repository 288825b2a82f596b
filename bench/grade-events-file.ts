// `npx tsx bench/grade-events-file.ts MIB FORM FILE`: writes an events file of about MIB MiB for
// `grade --events`, in FORM (`ndjson`, `array`, `poll` or `sse`), and beside it `FILE.suite.json`,
// the suite it was run under: the cost fixture's, with as many trials as the log holds, so that
// every trial is graded. Each trial is an honest host's (test/support/event-log.ts): 20 tool calls
// with some text in their inputs and answers, a usage, a decision and a score; about 430 bytes an
// event. bench/RESULTS.md "grade --events memory (branch inputs)" measured `grade` on these files.

import { appendFileSync, writeFileSync } from 'node:fs';
import { fixture } from '../lib/fixtures.ts';
import type { RunEvent } from '../lib/run-event.ts';
import { EventLog } from '../test/support/event-log.ts';

const [mib, form, out] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
if (!(mib > 0) || !['ndjson', 'array', 'poll', 'sse'].includes(form ?? '') || out === undefined) {
  process.stderr.write('usage: npx tsx bench/grade-events-file.ts MIB ndjson|array|poll|sse FILE\n');
  process.exit(2);
}

const COST = fixture('conformance-eval-cost');
const steps = Array.from({ length: 20 }, (_, i) => ({
  tool: 'conformance.eval:echo',
  inputs: { text: `step ${i} `.padEnd(120, 'x') },
  outcome: { echoed: 'y'.repeat(80) },
}));
const trial = { steps, usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true };

function log(trials: number): { runId: string; events: RunEvent[] } {
  const log = new EventLog({
    token: 'grade-mem',
    suiteId: COST.suite.suiteId,
    suiteVersion: COST.suite.version,
    modes: ['golden'],
    taskCount: 1,
    trialCount: trials,
  });
  for (let i = 0; i < trials; i += 1) log.trial('spend', i, trial);
  return { runId: log.runId, events: log.finish({ aggregateScore: 1, passed: true, passedCount: 1 }) };
}

const perTrial = log(1).events.reduce((bytes, event) => bytes + JSON.stringify(event).length + 1, 0);
const trials = Math.max(1, Math.round((mib * 2 ** 20) / perTrial));
const { runId, events } = log(trials);
const frame = (event: RunEvent) =>
  form === 'sse' ? `id: ${event.sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n` : `${JSON.stringify(event)}\n`;
if (form === 'array') writeFileSync(out, JSON.stringify(events));
else if (form === 'poll') writeFileSync(out, JSON.stringify({ runId, events, lastSequence: events.length - 1, status: 'completed', isTerminal: true }));
else {
  // By the 10 000 events: the text of a large log is longer than a string can be.
  writeFileSync(out, '');
  for (let i = 0; i < events.length; i += 10_000)
    appendFileSync(
      out,
      events
        .slice(i, i + 10_000)
        .map(frame)
        .join(''),
    );
}
writeFileSync(`${out}.suite.json`, JSON.stringify({ ...COST.suite, trials: { count: trials }, thresholds: { passScore: 1 } }));
process.stdout.write(`${out}: ${events.length} events, ${trials} trials\n`);
