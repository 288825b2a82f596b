// Runs a certification's legs concurrently. The legs of one host are independent but for two
// things: work they share through `target.memo` (one eval run judged by several legs), which is
// a promise any of them may start and all of them await, and the host state global to the host
// that some legs read before and after their own run (the effect counter and the keyed counters
// of CONTRACT §5), on a host with only the first seams. There a leg that reads such state runs
// with no other leg in flight: any other leg's run could move the counter between its two reads.
// A host that reads effects per run (CONTRACT §5) needs no such leg: each reads its own run's.
//
// Legs start in declaration order, at most N in flight (where no leg runs alone and N > 1, the
// legs with the longest chains of requests of their own first: the order then changes no row,
// which test/concurrency.test.ts holds); a leg that runs alone waits until every
// leg declared before it has ended, and no leg declared after it starts until it ends. So it sees
// the host as a one-at-a-time run would (every earlier leg done, no later one begun): a run an
// earlier leg left going on the host still reaches it as it always did, and what a known-bad host
// fails does not depend on N. Concurrency 1 is the one-at-a-time run, request for request. The
// rows come out, and progress is reported, in declaration order.

/** One unit of work: a leg, as the runner hands it over. */
export interface Job<T> {
  /** Runs with nothing else in flight, and nothing else starts until it ends. */
  alone: boolean;
  /**
   * Sends nothing to the host (a server-free leg, or one its gate keeps from running): it neither
   * waits for a place in flight nor takes one, so it never holds back a leg that talks to the host.
   */
  free?: boolean;
  /**
   * The longest chain of its own requests that wait on each other (lib/ledger/scenario.ts
   * HostLeg.chain): where the start order is free (more than one in flight, no job that runs
   * alone, whose rule needs declaration order), the longest chains start first, so that the
   * certification ends with its longest chain, not a place's wait after it.
   */
  chain?: number;
  start(): Promise<T>;
}

/**
 * The default number of host legs in flight: every host leg of a certification of the reference
 * host (about 60), chosen by the request chain it leaves (bench/chain.ts, bench/RESULTS.md "The
 * request chain (branch chain2)"). At L = 1000 ms through the latency proxy the longest chain of
 * requests waiting on each other was 18 at 16 legs in flight, 14–15 at 24, 13 at 32 and 11 at 64,
 * the data-dependent chain of the fork leg: below that, the legs queued for a place add links
 * after it. What a host sees: about 70–110 requests in flight at the peak (most legs have one or
 * two out, a run's log read in its other forms beside its summary, and a few send a round of
 * probes at once), each a small JSON exchange or a short event stream; a host that wants fewer
 * answers 429 or 503 with Retry-After, which is waited out (lib/client/retry.ts), or is certified
 * with a lower `--concurrency`. Memory does not grow with it: the caps on events and bytes held in
 * flight are global (lib/ledger/caps.ts), not per leg. The CPU of a certification does not either
 * (1.3–1.5 s at 16, 32 and 64 alike), but its runs share the machine at once: the in-process
 * certifications of the kill and latitude matrices, several to a loaded machine, pass 16
 * (test/support/matrix-harness.ts), where at 64 and load 25 their runs stretched past the run
 * deadline.
 */
export const DEFAULT_CONCURRENCY = 64;

export const MAX_CONCURRENCY = 64;

/**
 * Runs `jobs` with at most `limit` in flight and returns their results in declaration order;
 * `onDone` sees each result in declaration order too, a result that finishes early being held
 * until those before it are done. A job that throws stops new jobs from starting; the ones in
 * flight are awaited, then the first error is thrown.
 */
export async function schedule<T>(jobs: readonly Job<T>[], limit: number, onDone?: (value: T, index: number) => void): Promise<T[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`the concurrency must be a positive integer, got ${limit}`);
  const results: T[] = new Array<T>(jobs.length);
  const done: boolean[] = jobs.map(() => false);
  let reported = 0;
  let failure: { error: unknown } | undefined;
  const running = new Set<Promise<void>>();
  const free: Promise<void>[] = [];
  const settle = (job: Job<T>, index: number): Promise<void> =>
    job.start().then(
      (value) => {
        results[index] = value;
        done[index] = true;
        try {
          report();
        } catch (error) {
          failure ??= { error };
        }
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
  const report = (): void => {
    while (reported < jobs.length && done[reported]) {
      onDone?.(results[reported]!, reported);
      reported += 1;
    }
  };
  const order = jobs.map((_, index) => index);
  if (limit > 1 && !jobs.some((job) => job.alone)) order.sort((a, b) => (jobs[b]!.chain ?? 0) - (jobs[a]!.chain ?? 0) || a - b);
  for (const index of order) {
    const job = jobs[index]!;
    if (failure !== undefined) break;
    if (job.free === true) {
      // Started a turn later, so that its CPU comes after the first requests of the legs that
      // start now, not before them.
      free.push(new Promise<void>((resolve) => setImmediate(resolve)).then(() => (failure === undefined ? settle(job, index) : undefined)));
      continue;
    }
    // Bounded: each wait ends when one job in flight ends, and at most `limit` are in flight.
    while (running.size > 0 && (job.alone || running.size >= limit)) await Promise.race(running);
    if (failure !== undefined) break;
    const tracked = settle(job, index).finally(() => running.delete(tracked));
    running.add(tracked);
    if (job.alone) await tracked;
    // A turn of the event loop before the next job starts: the requests this one sent go out
    // now, not after the CPU of every job started with it (the first legs started are the ones
    // with the longest chains, whose first request begins the certification's longest wait).
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all([...running, ...free]);
  if (failure !== undefined) throw failure.error;
  return results;
}
