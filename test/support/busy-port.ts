// A loopback port held by a listening socket of the test's own: the embedded reference host asked
// to listen there cannot start (EADDRINUSE), which no check of its options can foresee, and which
// is the user's to change (commands/support/reference-host.ts startEmbedded).

import { createServer } from 'node:net';
import { onTestFinished } from 'vitest';

/** The port, held until the test that asked for it ends. */
export async function busyPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}
