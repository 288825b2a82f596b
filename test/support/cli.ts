// The command line in-process, as the tests drive it: its exit code and everything it wrote.

import { main } from '../../commands/cli.ts';
import type { EmbeddedHostFactory } from '../../lib/certify.ts';

export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return cliWith(undefined, ...argv);
}

/** As `cli`, with `embeddedHost` as the reference host `run` starts (the composition root's when undefined). */
export async function cliWith(embeddedHost: EmbeddedHostFactory | undefined, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) }, ...(embeddedHost === undefined ? [] : [embeddedHost]));
  return { code, out, err };
}

/** The flags that point `run` at a started host with both tenants' keys. */
export function hostFlags(host: { baseUrl: string; tenants: { a: { apiKey: string }; b: { apiKey: string } } }): string[] {
  return ['--base-url', host.baseUrl, '--api-key', host.tenants.a.apiKey, '--tenant-b-api-key', host.tenants.b.apiKey];
}

/** The flags that sign a bundle with the host's key `keyPath` (its id `keyId`) and name a build, as a vendor certifies. */
export function signingFlags(keyPath: string, keyId: string): string[] {
  return ['--signing-key', keyPath, '--signing-key-id', keyId, '--host-build', 'commit:0123456789abcdef'];
}
