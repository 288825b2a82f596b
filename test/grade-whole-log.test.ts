// `grade --events` grades the whole log of one ended run, and nothing else (docs/auditing.md
// "Recomputing a grade"): a log with a gap, a duplicate, a step backwards, an event after the
// terminal one, no terminal event, a second run's events, a repeated eventId, a poll response
// naming another run, or an SSE frame whose id is not its event's sequence is refused in one
// line, exit 2, as the live read (lib/client/event-log.ts) and the legs (CONTRACT §3, rules
// `served-event-run-id`, `served-event-ids`; docs/wire.md §5.1, §5.2) refuse it. Graded, each
// would be the grade of a run that never was: the cost fixture's run fails on its cost, and with
// one `provider.usage` left out it passes.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../lib/fixtures.ts';
import type { RunEvent } from '../lib/grader/index.ts';
import { cli } from './support/cli.ts';
import { EventLog, type LogEvent } from './support/event-log.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-grade-whole-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const COST = fixture('conformance-eval-cost');
const suite = file('cost-suite.json', JSON.stringify(COST));

/** The cost fixture's run, three trials at 0.004 USD each: over its ceiling, so it does not pass. */
function costLog(token = 'grade-whole'): LogEvent[] {
  const log = new EventLog({ token, suiteId: COST.suite.suiteId, suiteVersion: COST.suite.version, modes: ['golden'], taskCount: 1, trialCount: 3 });
  for (const i of [0, 1, 2])
    log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
  return log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
}

const ndjson = (events: readonly RunEvent[]): string => `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
const renumbered = (events: LogEvent[]): LogEvent[] => events.map((e, sequence) => ({ ...e, sequence }));
const firstUsage = (events: readonly LogEvent[]): number => events.findIndex((e) => e.type === 'provider.usage');

describe('grade --events: the whole log of one ended run, or a refusal', () => {
  it('grades the whole log: the run does not pass', async () => {
    const { code, out, err } = await cli('grade', '--suite', suite, '--events', file('whole.ndjson', ndjson(costLog())));
    expect(code, err).toBe(0);
    expect(JSON.parse(out).passed).toBe(false);
  });

  const other = costLog('grade-other');
  const cases: Array<[string, () => string, RegExp]> = [
    [
      // Graded, this log passes: its cost is two trials' cost.
      'a gap (one provider.usage left out)',
      () => ndjson(costLog().filter((_, i, all) => i !== firstUsage(all))),
      /sequence gap: 2 is followed by 4/,
    ],
    ['an event twice', () => ndjson(costLog().flatMap((e) => (e.sequence === 3 ? [e, e] : [e]))), /sequence 3 was delivered twice/],
    [
      'a step backwards',
      () => {
        const log = costLog();
        [log[3], log[4]] = [log[4]!, log[3]!];
        return ndjson(log);
      },
      /sequence 3 arrived after 4/,
    ],
    ['a log cut before its terminal event', () => ndjson(costLog().slice(0, -1)), /no terminal event \(run\.completed, run\.failed, run\.cancelled\)/],
    [
      'an event after the terminal one',
      () => {
        const log = costLog();
        const last = log[log.length - 1]!;
        return ndjson([...log, { ...last, eventId: 'evt-grade-whole-after', sequence: last.sequence + 1 }]);
      },
      /sequence 19 \(run\.completed\) came after the terminal event/,
    ],
    ['a second run after the first', () => ndjson([...costLog(), ...other]), /sequence 0 \(run\.started\) came after the terminal event/],
    [
      "another run's events spliced in, in sequence",
      () => ndjson([...costLog().slice(0, 4), ...other.slice(4)]),
      /15 event\(s\) carry another runId than "tenant-a\/run-grade-whole0", the first at sequence 4/,
    ],
    [
      'a repeated eventId',
      () => ndjson(costLog().map((e) => (e.sequence === 5 ? { ...e, eventId: 'evt-grade-whole-000004' } : e))),
      /1 event\(s\) repeat an earlier eventId \(sequences 4 and 5 share eventId "evt-grade-whole-000004"\)/,
    ],
    [
      'a poll response that names another run',
      () => JSON.stringify({ runId: other[0]!.runId, events: costLog(), lastSequence: 18, status: 'completed', isTerminal: true }),
      /19 event\(s\) carry another runId than "tenant-a\/run-grade-other0"/,
    ],
    [
      'a poll page of a run not yet ended',
      () => JSON.stringify({ runId: other[0]!.runId, events: other.slice(0, 10), lastSequence: 9, status: 'running', isTerminal: false }),
      /no terminal event/,
    ],
    [
      "an SSE frame whose id is not its event's sequence",
      () =>
        costLog()
          .map((e) => `id: ${e.sequence === 6 ? 7 : e.sequence}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
          .join(''),
      /SSE frame 7 \(id 7\) carries the event of sequence 6: a frame's id is its event's sequence \(docs\/wire\.md §5\.2\)/,
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`refuses ${what} in one line, exit 2`, async () => {
      const { code, out, err } = await cli('grade', '--suite', suite, '--events', file(`${what.replace(/\W+/g, '-')}.txt`, text()));
      expect(code, out).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(/: not the whole log of one ended run: |SSE frame/);
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  // What the gap above would grade as: a log that is whole by its sequences is graded as it
  // stands, and this one passes (a grade recomputes what the log holds, not what it should hold).
  it('grades a log whole by its sequences, whatever it holds: without the usage the run passes', async () => {
    const log = renumbered(costLog().filter((_, i, all) => i !== firstUsage(all)));
    const { code, out, err } = await cli('grade', '--suite', suite, '--events', file('renumbered.ndjson', ndjson(log)));
    expect(code, err).toBe(0);
    expect(JSON.parse(out).passed).toBe(true);
  });
});

describe('grade --events: what the grader recomputed around is said beside the grade', () => {
  it('a trial scored twice: graded (the first kept), exit 0, with a note on stderr naming it', async () => {
    const log = new EventLog({
      token: 'grade-twice',
      suiteId: COST.suite.suiteId,
      suiteVersion: COST.suite.version,
      modes: ['golden'],
      taskCount: 1,
      trialCount: 3,
    });
    for (const i of [0, 0, 1, 2])
      log.trial('spend', i, { steps: [], usage: [{ inputTokens: 200, outputTokens: 40, costUsd: 0.004 }], decision: 'within budget', score: 1, passed: true });
    const events = log.finish({ aggregateScore: 1, passed: false, passedCount: 1 });
    const { code, out, err } = await cli('grade', '--suite', suite, '--events', file('twice.ndjson', ndjson(events)));
    expect(code, err).toBe(0);
    expect(JSON.parse(out).anomalies).toHaveLength(1);
    expect(err).toMatch(
      /^note: the log has 1 anomaly\(ies\) the grade was recomputed around \(its anomalies member lists each\): task spend trial 0 is scored more than once/m,
    );
  });
});

describe('grade --max-events: the cap on events per run, as run has it', () => {
  it('refuses a log of more events than the cap in one line, exit 2, and grades one within it', async () => {
    const path = file('capped.ndjson', ndjson(costLog()));
    const over = await cli('grade', '--suite', suite, '--events', path, '--max-events', '18');
    expect(over.code, over.out).toBe(2);
    expect(over.err).toMatch(
      /capped\.ndjson: more than 18 events, the cap on events per run \(--max-events \(OPENWOP_MAX_EVENTS\)\); a longer log is read with a larger cap\n$/,
    );
    const within = await cli('grade', '--suite', suite, '--events', path, '--max-events', '19');
    expect(within.code, within.err).toBe(0);
    const bad = await cli('grade', '--suite', suite, '--events', path, '--max-events', '0');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--max-events \(or OPENWOP_MAX_EVENTS\) must be a positive integer, got "0"/);
  });
});

describe('grade: the log is a run of the suite given', () => {
  const started = (log: LogEvent[]) => log.findIndex((e) => e.type === 'eval.started');
  const cases: Array<[string, () => LogEvent[], RegExp]> = [
    [
      'a run of another suite',
      () => costLog().map((e) => (e.type === 'eval.started' ? { ...e, payload: { ...(e.payload as object), suiteId: 'other.evals.suite' } } : e)),
      /a run of suite "other\.evals\.suite" version "1\.0\.0" \(its eval\.started\), not of the suite given, "core\.conformance\.evals\.cost" version "1\.0\.0" \(--suite\)/,
    ],
    [
      'a run of another version of the suite',
      () => costLog().map((e) => (e.type === 'eval.started' ? { ...e, payload: { ...(e.payload as object), suiteVersion: '2.0.0' } } : e)),
      /a run of suite "core\.conformance\.evals\.cost" version "2\.0\.0"/,
    ],
    [
      'no eval.started',
      () => renumbered(costLog().filter((e) => e.type !== 'eval.started')),
      /0 eval\.started events; an eval run's log holds exactly one \(docs\/wire\.md §2\)/,
    ],
    [
      'two eval.started',
      () => {
        const log = costLog();
        const at = started(log);
        return renumbered([...log.slice(0, at + 1), { ...log[at]!, eventId: 'evt-grade-whole-second' }, ...log.slice(at + 1)]);
      },
      /2 eval\.started events/,
    ],
  ];
  for (const [what, log, message] of cases) {
    it(`refuses ${what}, exit 2`, async () => {
      const { code, out, err } = await cli('grade', '--suite', suite, '--events', file(`${what.replace(/\W+/g, '-')}.ndjson`, ndjson(log())));
      expect(code, out).toBe(2);
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    });
  }
});
