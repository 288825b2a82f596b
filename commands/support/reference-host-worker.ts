// The embedded reference host on a thread of its own (./reference-host.ts): a certification of
// the embedded host then spends the host's CPU and the harness's on two cores, not one
// (bench/RESULTS.md "Start-up and npm start"). It starts the host with the options it is sent,
// tells the harness's thread its base URL and keys, forwards its log lines, and closes it when
// asked.

import { parentPort } from 'node:worker_threads';
import { prepareReferenceHost, startReferenceHost } from '../../hosts/reference/server.ts';

/** What the worker tells the thread that started it. */
export type FromHostThread =
  | { started: { baseUrl: string; tenants: { a: { apiKey: string }; b: { apiKey: string } } } }
  | { failed: { name: string; message: string; code?: string } }
  | { log: string }
  | { closed: true };

const port = parentPort!;
const tell = (message: FromHostThread): void => port.postMessage(message);

// The options come in the first message, not in workerData: bin/ starts this thread before the
// command has read its flags (./reference-host.ts, startReferenceHostThread), so the host's modules
// load, and its fixture files are read and checked, while the command's modules load.
port.once('message', async (options: Record<string, unknown>) => {
  try {
    const host = await startReferenceHost({ ...options, log: (message: string) => tell({ log: message }) });
    tell({ started: { baseUrl: host.baseUrl, tenants: { a: { apiKey: host.tenants.a.apiKey }, b: { apiKey: host.tenants.b.apiKey } } } });
    port.once('message', async () => {
      await host.close();
      tell({ closed: true });
      port.close();
    });
  } catch (error) {
    // The code too (EADDRINUSE, …): the command tells a port it cannot listen on from a harness bug by it.
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    tell({
      failed:
        error instanceof Error
          ? { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) }
          : { name: 'Error', message: String(error) },
    });
    port.close();
  }
});
prepareReferenceHost();
