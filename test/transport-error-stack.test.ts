// A transport error kept for a whole certification (the rejection of a memoised read,
// lib/ledger/target.ts) must not keep alive what the closures it was raised in hold: V8 keeps an
// unread stack as its frames, each holding its function and so its closure, which is how a flood's
// event logs outlived their reads (bench/RESULTS.md "Flood and start-up margins").
// lib/client/transport-errors.ts writes the stack out as text when the error is made.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HarnessCapReached, TransportError } from '../lib/client/index.ts';
import { NoProgress } from '../lib/client/transport-errors.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** An error made inside a closure that holds a large log, as the event reader's are; the log is referenced only weakly here. */
function raisedOver(make: () => Error): { error: Error; log: WeakRef<object> } {
  const events = Array.from({ length: 1000 }, (_, sequence) => ({ sequence, type: 'agent.decided' }));
  const log = new WeakRef(events);
  const hold = (): Error => (events.length > 0 ? make() : new Error('unreachable'));
  return { error: hold(), log };
}

async function collected(log: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && log.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    collect();
  }
  return log.deref() === undefined;
}

describe('a transport error keeps its stack as text', () => {
  it.each([
    ['TransportError', () => new TransportError('lost')],
    ['HarnessCapReached', () => new HarnessCapReached('the reads in flight hold more than 10 bytes', '--max-bytes-in-flight', 10)],
    ['NoProgress', () => new NoProgress('no progress for 30 s')],
  ])('%s does not keep the closures it was raised in alive', async (_, make) => {
    const { error, log } = raisedOver(make);
    expect(await collected(log)).toBe(true);
    expect(error).toBeInstanceOf(TransportError);
  });

  it('names the error as its class finally does, on its first line, with the frames below', () => {
    const cap = new HarnessCapReached('the reads in flight hold more than 10 bytes', '--max-bytes-in-flight', 10);
    expect(cap.stack?.split('\n')[0]).toBe('HarnessCapReached: the reads in flight hold more than 10 bytes');
    expect(cap.stack?.split('\n')[1]).toMatch(/^\s+at /);
    expect(new TransportError('lost').stack?.split('\n')[0]).toBe('TransportError: transport-loss: lost');
    cap.stack = 'set by a caller';
    expect(cap.stack).toBe('set by a caller');
  });

  it('an error not kept as text still holds its closures (the test can tell)', async () => {
    const { error, log } = raisedOver(() => new Error('plain'));
    expect(await collected(log)).toBe(false);
    expect(error.message).toBe('plain');
  });
});
