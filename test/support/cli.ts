// The command line in-process, as the tests drive it: its exit code and everything it wrote.

import { main } from '../../lib/cli.ts';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}
