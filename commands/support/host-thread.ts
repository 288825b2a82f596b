// The embedded reference host's thread, apart from the rest of ./reference-host.ts so that bin/
// can start it before the command loads: this module loads node:worker_threads and nothing else.
// bin/ and the command must share it, so the bundled command (scripts/bundle.ts) leaves it out of
// its bundle and requires the one bin/ loaded.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * The thread's entry: the bundled host (dist/bundle/reference-host-worker.cjs, which loads its modules as
 * one script with their compiled code cached) when the build made one, else the built module.
 */
function threadEntry(): URL {
  const bundled = new URL('../../bundle/reference-host-worker.cjs', import.meta.url);
  return existsSync(bundled) ? bundled : new URL('./reference-host-worker.js', import.meta.url);
}

/** Whether the host can run on a thread of its own: from the build only, as a worker thread does not inherit the loader that reads the TypeScript sources. */
export function threadPossible(): boolean {
  return import.meta.url.endsWith('.js');
}

/** The host's thread bin/ started early, when it did, with what it has said so far of its end. */
let early: { worker: Worker; failed: boolean; watch: () => void } | undefined;

/**
 * Starts the host's thread before the command's modules load (bin/, for a `run` that names no
 * --base-url): the thread loads the host's modules meanwhile and waits for its options, which
 * the run sends once it has read them (./reference-host.ts). Unused, it keeps nothing alive.
 */
export function startReferenceHostThread(): void {
  if (early !== undefined || !threadPossible()) return;
  const worker = new Worker(threadEntry());
  worker.unref();
  // A thread that fails before it is used is replaced by a fresh one, whose failure is said.
  const started = { worker, failed: false, watch: () => (started.failed = true) };
  worker.on('error', started.watch);
  worker.on('exit', started.watch);
  early = started;
}

/** The early thread when it is sound, else a new one. */
export function takeHostThread(): Worker {
  const taken = early;
  early = undefined;
  if (taken === undefined || taken.failed) return new Worker(threadEntry());
  taken.worker.off('error', taken.watch);
  taken.worker.off('exit', taken.watch);
  taken.worker.ref();
  return taken.worker;
}
