// Self-tests of lib/client reading a run's events from the fake host (test/support/fake-host.ts):
// SSE with resumption, the poll fallback, and the bounds on both.

import { describe, expect, it } from 'vitest';
import { HarnessCapReached, readRunEvents, RunWaitEnded, TransportError } from '../lib/client/index.ts';
import {
  baseUrl,
  client,
  completedLog,
  event,
  every,
  fake,
  frame,
  isEventsRequest,
  isPollRequest,
  json,
  only,
  openSse,
  rejection,
  RUN_ID,
  RUN_PATH,
  seen,
  sequences,
  useFakeHost,
  HANG_MS,
} from './support/fake-host.ts';
import { patient } from './support/slowness.ts';

useFakeHost();

/** A stream that sends the events of these sequences, then keep-alive comments for ever: only a deadline ends its read. */
function eventsThenKeepAlives(...sequences: number[]): NonNullable<typeof fake.handler> {
  return (_req, res) => {
    openSse(res);
    res.write(sequences.map((sequence) => frame(event(sequence))).join(''));
    every(50, () => {
      if (!res.destroyed) res.write(': keep-alive\n\n');
    });
  };
}

describe('reading run events', () => {
  it('an SSE stream is read in debug mode up to its terminal event', async () => {
    fake.handler = (_req, res, entry) => {
      if (!isEventsRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      openSse(res);
      res.write(': keep-alive\n\n');
      for (const doc of completedLog(5)) res.write(frame(doc));
      // The host keeps the stream open: the reader must stop on the terminal event by itself.
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3, 4]);
    const entry = only(seen);
    expect(entry.url).toBe(`${RUN_PATH}/events?streamMode=debug`);
    expect(entry.headers.accept).toBe('text/event-stream');
    expect(entry.headers['last-event-id']).toBeUndefined();
  });

  it('a batch frame contributes each of its events', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      const log = completedLog(4);
      res.write(`event: batch\ndata: ${JSON.stringify(log.slice(0, 3))}\n\n`);
      res.end(frame(log[3] as Record<string, unknown>));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
  });

  it('a stream dropped mid-way resumes with Last-Event-ID and yields no duplicate', async () => {
    const log = completedLog(6);
    fake.handler = (_req, res, entry) => {
      openSse(res);
      const after = entry.headers['last-event-id'];
      if (after === undefined) {
        const head = log.slice(0, 3).map(frame).join('');
        // Half of the fourth frame, then the connection dies.
        res.write(head + frame(log[3] as Record<string, unknown>).slice(0, 20), () => res.socket?.destroy());
      } else {
        for (const doc of log.filter((d) => (d.sequence as number) > Number(after))) res.write(frame(doc));
        res.end();
      }
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'sse', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen.map((e) => e.headers['last-event-id'])).toEqual([undefined, '2']);
  });

  it('a host that re-sends the resumption point is reported, and the event is kept once', async () => {
    const log = completedLog(4);
    fake.handler = (_req, res, entry) => {
      openSse(res);
      const after = entry.headers['last-event-id'];
      if (after === undefined) {
        res.write(log.slice(0, 2).map(frame).join(''), () => res.socket?.destroy());
      } else {
        // Wrong: the resumption point (sequence 1) is sent again.
        for (const doc of log.slice(1)) res.write(frame(doc));
        res.end();
      }
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read.ok).toBe(false);
    expect(read.ok === false && read.reason).toContain('sequence 1 was delivered twice');
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
  });

  it('a sequence gap is reported as a reason and every event is kept', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      res.end([event(0), event(2), event(3, 'run.completed')].map(frame).join(''));
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: false, reason: expect.stringContaining('sequence gap: 0 is followed by 2') });
    expect(sequences(read.events)).toEqual([0, 2, 3]);
  });

  it('a stream that brings nothing new more often than maxResumes in a row is a TransportError', async () => {
    fake.handler = (_req, res, entry) => {
      openSse(res);
      const body = entry.headers['last-event-id'] === undefined ? frame(event(0)) : ': nothing new\n\n';
      res.write(body, () => res.socket?.destroy());
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS, maxResumes: 2 }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('lost 3 times in a row with nothing new');
    // The first stream brought sequence 0, so its end is a resume; the three after it brought nothing.
    expect(seen).toHaveLength(4);
  });

  it('an unsupported stream mode falls back to polling from the start of the log', async () => {
    const log = completedLog(4);
    fake.handler = (_req, res, entry) => {
      if (isPollRequest(entry)) {
        const url = new URL(entry.url, baseUrl);
        const after = url.searchParams.get('afterSequence');
        const page = after === null ? log.slice(0, 2) : log.filter((d) => (d.sequence as number) > Number(after));
        const last = page.at(-1)?.sequence ?? -1;
        return json(res, 200, { runId: RUN_ID, events: page, lastSequence: last, status: 'running', isTerminal: last === 3 });
      }
      json(res, 400, { error: 'unsupported_stream_mode', message: 'no debug', details: { supported: ['updates'] } });
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'poll', terminal: true });
    expect(sequences(read.events)).toEqual([0, 1, 2, 3]);
    const polls = seen.filter(isPollRequest).map((e) => new URL(e.url, baseUrl).searchParams);
    expect(polls.map((q) => q.get('afterSequence'))).toEqual([null, '1']);
    expect(polls.every((q) => Number(q.get('timeout')) >= 1 && Number(q.get('timeout')) <= 60)).toBe(true);
  });

  it('a 200 that is not text/event-stream also falls back to polling', async () => {
    fake.handler = (_req, res, entry) => {
      if (isPollRequest(entry)) {
        return json(res, 200, { runId: RUN_ID, events: completedLog(2), lastSequence: 1, status: 'completed', isTerminal: true });
      }
      json(res, 200, { events: [] });
    };
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS });
    expect(read).toMatchObject({ ok: true, via: 'poll', terminal: true });
  });

  // The stream stays open with keep-alives forever, so only the deadline ends the read: the error
  // naming the deadline is the check; the test timeout only guards against a hang. A run still
  // going when the harness stops waiting is no answer of the host's (CONTRACT.md fixes no time a
  // run must end in): a TransportError, which the runner makes `blocked`, not `{ok: false}`.
  it('a stream that never reaches a terminal event ends at the deadline as RunWaitEnded (blocked)', { timeout: 15_000 }, async () => {
    fake.handler = eventsThenKeepAlives(0, 1);
    // The two events must have arrived by the deadline, so it is stretched by the machine's measured slowness.
    const deadlineMs = patient(600);
    const error = await readRunEvents(client(), RUN_ID, { deadlineMs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunWaitEnded);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(new RegExp(`^no terminal event within ${deadlineMs} ms \\(via sse, last sequence 1\\): the run had not ended`));
    // A deadline of the caller's own is not the scaled setting: no hint to scale it.
    expect((error as Error).message).not.toContain('gives a slow host longer');
  });

  // What the host sent wrong before the deadline is its answer, whatever ended the read.
  it('a log with a defect at the deadline is {ok: false}, naming the defect', { timeout: 15_000 }, async () => {
    fake.handler = eventsThenKeepAlives(0, 2);
    const deadlineMs = patient(600);
    const read = await readRunEvents(client(), RUN_ID, { deadlineMs });
    expect(read).toMatchObject({ ok: false, via: 'sse', reason: expect.stringContaining(`no terminal event within ${deadlineMs} ms`) });
    expect(read.ok === false && read.reason).toContain('sequence gap: 0 is followed by 2');
  });

  // Without a deadline of its own, a read waits what its client's run wait says.
  it("a read given no deadline waits its client's run wait", { timeout: 15_000 }, async () => {
    fake.handler = eventsThenKeepAlives(0);
    const runWaitMs = patient(500);
    const error = await readRunEvents(client({ runWaitMs }), RUN_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunWaitEnded);
    expect((error as Error).message).toContain(`no terminal event within ${runWaitMs} ms`);
    expect((error as Error).message).toMatch(
      /the run had not ended when the harness stopped waiting for it \(the timeout scale setting gives a slow host longer\)$/,
    );
  });

  // Only the deadline ends the loop short of maxPolls: the reason naming it is the check, and the
  // number of polls shows the empty answers were paced; the test timeout only guards a hang.
  it('a poll that never reaches a terminal event ends at the deadline as RunWaitEnded', { timeout: 15_000 }, async () => {
    fake.handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      // Answers an empty page at once, ignoring the long-poll timeout.
      json(res, 200, { runId: RUN_ID, events: [], lastSequence: -1, status: 'running', isTerminal: false });
    };
    const deadlineMs = 700;
    const error = await readRunEvents(client(), RUN_ID, { deadlineMs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunWaitEnded);
    expect((error as Error).message).toContain('no terminal event within 700 ms (via poll');
    // The empty answers were paced, not spun on.
    expect(seen.filter(isPollRequest).length).toBeLessThan(20);
  });

  // The cap on polls is the harness's bound too: a run still giving an event a poll past it is
  // no failure of the host's, as at the deadline.
  it('a run still going after maxPolls polls, each bringing an event, ends as RunWaitEnded', async () => {
    fake.handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      const after = new URL(entry.url, baseUrl).searchParams.get('afterSequence');
      const next = after === null ? 0 : Number(after) + 1;
      json(res, 200, { runId: RUN_ID, events: [event(next)], lastSequence: next, status: 'running', isTerminal: false });
    };
    const error = await readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS, transport: 'poll', maxPolls: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunWaitEnded);
    expect((error as Error).message).toContain('no terminal event after 5 polls (last sequence 4): the run had not ended');
  });

  // The client's own bound on that poll is 1 s + 60 s, so a poll not cut at the deadline would
  // outlive the 15 s test timeout by far: that timeout tells the two apart without a tight timing.
  it('a long poll held past the deadline is cut at the deadline', { timeout: 15_000 }, async () => {
    fake.handler = (_req, res, entry) => {
      if (!isPollRequest(entry)) return json(res, 404, { error: 'not_found', message: 'x' });
      // Holds every poll open and never answers.
    };
    const deadlineMs = 500;
    const error = await readRunEvents(client({ timeoutMs: 60_000 }), RUN_ID, { deadlineMs }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunWaitEnded);
    expect((error as Error).message).toContain('no terminal event within 500 ms (via poll');
    expect(seen.filter(isPollRequest)).toHaveLength(1);
  });

  it("a stream larger than maxBytes stops at the cap: HarnessCapReached naming the cap (blocked, not the host's fault)", async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      let sequence = 0;
      every(1, () => {
        if (!res.destroyed) res.write(frame({ ...event(sequence++), payload: { pad: 'p'.repeat(2048) } }));
      });
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS, maxBytes: 32 * 1024 }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain('exceed 32768 bytes');
    // A client given no setting names names the cap in the harness's own words.
    expect((error as Error).message).toContain('the harness cap of 32768 bytes per response, the response-bytes cap setting,');
  });

  it('more events than maxEvents without a terminal event stops at the cap: HarnessCapReached naming the cap', async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      res.end(Array.from({ length: 20 }, (_, i) => frame(event(i))).join(''));
    };
    const error = await rejection(readRunEvents(client(), RUN_ID, { deadlineMs: HANG_MS, maxEvents: 10 }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as Error).message).toContain('more than 10 events');
    expect((error as Error).message).toContain('the harness cap of 10 events per run, the events-per-run cap setting,');
  });

  it("the caps default to the client's (--max-events, --max-response-bytes)", async () => {
    fake.handler = (_req, res) => {
      openSse(res);
      res.end(Array.from({ length: 20 }, (_, i) => frame(event(i))).join(''));
    };
    const error = await rejection(readRunEvents(client({ maxEvents: 5 }), RUN_ID, { deadlineMs: HANG_MS }));
    expect(error).toBeInstanceOf(HarnessCapReached);
    expect((error as HarnessCapReached).limit).toBe(5);
  });
});
