// The `host` command: the embedded reference host on 127.0.0.1, its base URL and tenant keys
// printed, until SIGINT or SIGTERM.

import { cannotStart, usage, type Io } from '../lib/io.ts';
import { importReferenceHost, type ReferenceHost } from './support/reference-host.ts';

export interface HostOptions {
  port: string;
  db?: string;
}

export async function hostCommand(options: HostOptions, io: Io): Promise<number> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return usage(io, `--port: not a port number: ${options.port}`);
  let host: ReferenceHost;
  try {
    const { startReferenceHost } = await importReferenceHost();
    host = await startReferenceHost({ port, dbPath: options.db });
  } catch (error) {
    return cannotStart(io, `the reference host could not start: ${(error as Error).message}`);
  }
  io.out(`reference host listening on ${host.baseUrl}\n`);
  io.out(`tenant A: ${host.tenants.a.tenantId}  key ${host.tenants.a.apiKey}\n`);
  io.out(`tenant B: ${host.tenants.b.tenantId}  key ${host.tenants.b.apiKey}\n`);
  io.out(`database: ${options.db ?? ':memory:'}; stop with Ctrl-C\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await host.close();
  return 0;
}
