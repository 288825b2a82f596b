// The command line in-process, as the tests drive it: its exit code and everything it wrote.

import { main } from '../../commands/cli.ts';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

/** The flags that point `run` at a started host with both tenants' keys. */
export function hostFlags(host: { baseUrl: string; tenants: { a: { apiKey: string }; b: { apiKey: string } } }): string[] {
  return ['--base-url', host.baseUrl, '--api-key', host.tenants.a.apiKey, '--tenant-b-api-key', host.tenants.b.apiKey];
}
