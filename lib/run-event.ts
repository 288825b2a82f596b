// One event of a run's log (docs/wire.md §5.1, the v2 `RunEventDoc`): the one type the client
// that reads a log (lib/client) and the grader that grades it (lib/grader) share, so that what
// the one reads the other takes as it is.

/**
 * A run event as received. The client checks `sequence` and `type` on receipt; the grader reads
 * `payload`; every other member (`eventId`, `runId`, `timestamp`, …) is carried as it came.
 */
export interface RunEvent {
  sequence: number;
  type: string;
  payload?: unknown;
  [member: string]: unknown;
}
