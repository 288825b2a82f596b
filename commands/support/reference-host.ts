// The embedded reference host as the commands reach it: `run` is handed it (lib/certify.ts) when
// no --base-url is given, and `host` starts it. The only module of lib/ that imports hosts/.

import type { EmbeddedHostFactory } from '../../lib/certify.ts';

type ReferenceHostModule = typeof import('../../hosts/reference/server.ts');

/** The reference host a command starts: what `startReferenceHost` resolves to. */
export type ReferenceHost = Awaited<ReturnType<ReferenceHostModule['startReferenceHost']>>;

/** The embedded reference host, handed to `run` by the composition root (commands/cli.ts). */
export const startEmbeddedReferenceHost: EmbeddedHostFactory = async (options) => {
  const { startReferenceHost } = await importReferenceHost();
  return startReferenceHost(options);
};

/** Loaded when asked for, so that a run against a URL never loads the host or its store. */
export function importReferenceHost(): Promise<ReferenceHostModule> {
  return import('../../hosts/reference/server.ts');
}
