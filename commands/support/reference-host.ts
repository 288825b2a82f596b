// The embedded reference host as the commands reach it: `run` is handed it (lib/certify.ts) when
// no --base-url is given, and `host` starts it. The only module of lib/ that imports hosts/.

import { EmbeddedHostUnavailable, type EmbeddedHostFactory } from '../../lib/certify.ts';

type ReferenceHostModule = typeof import('../../hosts/reference/server.ts');

/** The reference host a command starts: what `startReferenceHost` resolves to. */
export type ReferenceHost = Awaited<ReturnType<ReferenceHostModule['startReferenceHost']>>;

/** The embedded reference host, handed to `run` by the composition root (commands/cli.ts). */
export const startEmbeddedReferenceHost: EmbeddedHostFactory = async (options) => {
  const { startReferenceHost } = await importReferenceHost();
  return startReferenceHost(options);
};

/**
 * The reference host's store needs better-sqlite3, an optional dependency: an install without it
 * (or without its native addon, built by an install script) still certifies a host by URL.
 */
export async function importReferenceHost(): Promise<ReferenceHostModule> {
  try {
    const { default: Database } = await import('better-sqlite3');
    new Database(':memory:').close();
  } catch (error) {
    // Without the package the import fails; without its native addon (an install that ran no
    // scripts) the first database does, and `bindings` lists every path it tried: keep one line.
    const cause =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND'
        ? 'the package is missing'
        : `its native addon does not load (${(error as Error).message.split('\n')[0]!.replace(/\s*Tried:$/, '')})`;
    throw new EmbeddedHostUnavailable(
      `the embedded reference host needs better-sqlite3, which is not installed: ${cause}; use --base-url to certify a running host`,
    );
  }
  return import('../../hosts/reference/server.ts');
}
