// What a host sends decides how long some arrays are: the events of an SSE `batch` frame, the
// brackets of a trial. Spread into one call (`push(...events)`, `Math.max(...sequences)`), an
// array past about 125,000 items exceeds what a call takes and throws "Maximum call stack size
// exceeded": a crash on what a host sent. Each is read here at 200,000.

import { describe, expect, it } from 'vitest';
import { readEventsText } from '../lib/client/events-text.ts';
import { gradeRun, type EvalSuite } from '../lib/grader/index.ts';
import { fixture } from '../lib/fixtures.ts';
import { open } from './support/honest-log.ts';
import type { FixtureDoc } from './support/fixture-corpus.ts';

/** Far past what one call takes as arguments (about 125,000 on Node.js 20). */
const MANY = 200_000;

describe('arrays as long as a host makes them', () => {
  it('an SSE batch frame of 200,000 events is read, every one', () => {
    const events = Array.from({ length: MANY }, (_, sequence) => ({ sequence, type: 'agent.decided' }));
    const read = readEventsText(`event: batch\ndata: ${JSON.stringify(events)}\n\n`, 'many.sse');
    expect(read.ok && read.events.length).toBe(MANY);
  });

  it('a trial of 200,000 agent brackets is graded', () => {
    const doc = fixture('conformance-eval-delegates') as unknown as FixtureDoc;
    const task = doc.suite.tasks[0]!.taskId;
    const log = open(doc, 'many');
    log.trial(task, 0, { steps: [], decision: 'done', score: 0, passed: false });
    const one = log.finish({ aggregateScore: 0, passed: false, passedCount: 0 });
    // The trial's bracket (invocation-started, decided, invocation-completed), run MANY times
    // before its eval.scored: each copy an invocation of its own, every sequence after it moved on.
    const opened = one.findIndex((event) => event.type === 'agent.invocation-started');
    const scored = one.findIndex((event) => event.type === 'eval.scored');
    const bracket = one.slice(opened, scored);
    const copies = Array.from({ length: MANY - 1 }, (_, copy) =>
      bracket.map((event) => {
        const payload = { ...(event.payload as Record<string, unknown>), invocationId: `inv-many-${copy}` };
        return { ...event, payload };
      }),
    ).flat();
    const events = [...one.slice(0, scored), ...copies, ...one.slice(scored)].map((event, sequence) => ({
      ...event,
      sequence,
      eventId: `evt-many-${sequence}`,
    }));
    const grade = gradeRun(doc.suite as unknown as EvalSuite, events);
    const trial = grade.tasks.find((t) => t.taskId === task)!.trialGrades[0]!;
    expect(trial.bracketCount).toBe(MANY);
    expect(trial.ranSequence).toBe(scored + copies.length - bracket.length);
  });
});
