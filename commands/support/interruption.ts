// Interruption of a certification (docs/certifying.md "Deadlines and interruption", lib/ledger/deadlines.ts):
// SIGINT, SIGTERM or the run deadline stop the legs; what was not reached is blocked, and every
// output is still written.

/** The exit code of a run a signal interrupted (README "Exit codes"): 128 + the signal's number. */
const SIGNAL_EXIT_CODES: Record<string, number> = { 'SIGINT received': 130, 'SIGTERM received': 143 };

/** Listens for the two signals and the run deadline from construction until `dispose()`. */
export class RunInterruption {
  private readonly stopper = new AbortController();
  private interruptedBy: string | undefined;
  private readonly onSigint = (): void => this.interrupt('SIGINT received');
  private readonly onSigterm = (): void => this.interrupt('SIGTERM received');
  private readonly timer: NodeJS.Timeout;

  constructor(runDeadlineMs: number) {
    process.once('SIGINT', this.onSigint);
    process.once('SIGTERM', this.onSigterm);
    this.timer = setTimeout(() => this.interrupt(`the run deadline of ${runDeadlineMs} ms passed (--run-deadline)`), runDeadlineMs);
  }

  /** Aborted at the first interruption. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /** What interrupted the run, once something did. */
  get reason(): string | undefined {
    return this.interruptedBy;
  }

  private interrupt(reason: string): void {
    if (this.interruptedBy !== undefined) return;
    this.interruptedBy = reason;
    this.stopper.abort();
  }

  /**
   * The exit code of an interrupted run: the shell's convention for a process ended by a signal,
   * 128 + its number, unless the run could not write its outputs (2); `code` otherwise.
   */
  exitCode(code: number): number {
    const bySignal = this.interruptedBy === undefined ? undefined : SIGNAL_EXIT_CODES[this.interruptedBy];
    return bySignal !== undefined && code !== 2 ? bySignal : code;
  }

  dispose(): void {
    clearTimeout(this.timer);
    process.removeListener('SIGINT', this.onSigint);
    process.removeListener('SIGTERM', this.onSigterm);
  }
}
