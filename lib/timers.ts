// What a Node timer can hold, shared by every place that reads a delay from a user or an archive.

/**
 * The longest delay a timer holds, 2^31 - 1 ms: Node fires a longer one after 1 ms instead (with
 * a TimeoutOverflowWarning), so a deadline of a month would end the run at once.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
