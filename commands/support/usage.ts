// A usage error of the command line (README "Exit codes", code 2).

import { oneLine, PROGRAM, type Io } from '../../lib/io.ts';

/** One line naming the problem, then where help is. */
export function usage(io: Io, message: string): 2 {
  io.err(`${PROGRAM}: ${oneLine(message)} (see --help)\n`);
  return 2;
}
