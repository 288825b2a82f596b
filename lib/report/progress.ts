// Progress on standard error while the legs of `run` run (`--progress`, docs/certifying.md "Certifying your
// host"); the rows themselves are printed once, at the end, by commands/run.ts.

import type { LedgerRow } from '../evidence/types.ts';
import type { Io } from '../io.ts';

/** `--progress`: `auto` redraws one line on a terminal and prints nothing on a pipe. */
export const PROGRESS_MODES = ['auto', 'lines', 'none'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/**
 * Progress on standard error while the legs run; each row is printed once, in the final list on
 * standard output (the findings may still change a row after its leg, lib/ledger/runner.ts).
 * `auto`: on a terminal one line, redrawn per leg and cleared at the end; on a pipe nothing.
 * `lines`: a line per finished leg, for a log that should show the run is alive (and the bench,
 * which times each leg's end by it).
 */
export class Progress {
  private done = 0;
  private readonly style: 'redraw' | 'lines' | 'none';

  constructor(
    private readonly io: Io,
    mode: ProgressMode,
    private readonly total: number,
  ) {
    this.style = mode === 'auto' ? (io.tty ? 'redraw' : 'none') : mode;
  }

  row(row: LedgerRow): void {
    this.done += 1;
    const line = `[${this.done}/${this.total}] ${row.result.padEnd(13)} ${row.id}`;
    if (this.style === 'redraw') this.redraw(line);
    if (this.style === 'lines') this.io.err(`${line}\n`);
  }

  end(): void {
    if (this.style === 'redraw' && this.done > 0) this.redraw('');
  }

  private redraw(line: string): void {
    if (this.io.redraw !== undefined) this.io.redraw(line);
    else this.io.err(`\r\x1b[2K${line}`);
  }
}
