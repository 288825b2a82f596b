// The embedded reference host as the commands reach it: `run` is handed it (lib/certify.ts) when
// no --base-url is given, and `host` starts it. The only module of lib/ that imports hosts/.

import type { EmbeddedHost, EmbeddedHostFactory } from '../../lib/certify.ts';
import type { FromHostThread } from './reference-host-worker.ts';
import { takeHostThread, threadPossible } from './host-thread.ts';

type ReferenceHostModule = typeof import('../../hosts/reference/server.ts');
type ReferenceHostOptions = NonNullable<Parameters<ReferenceHostModule['startReferenceHost']>[0]>;

/**
 * The reference host's options, each with whether JSON can set it (`run --reference-host-config`):
 * the others take functions. The type check holds the list to ReferenceHostOptions.
 */
const CONFIG_OPTIONS = {
  port: true,
  dbPath: true,
  tenants: true,
  evalSuite: true,
  seams: true,
  runEffects: true,
  holds: true,
  replay: true,
  fixturesDir: true,
  validateTraffic: true,
  signingKey: true,
  publishedKey: true,
  signingKeyId: true,
  paceMs: true,
  implementation: true,
  bodyTimeoutMs: true,
  keepAliveMs: true,
  onTrafficViolation: false,
  engineBehaviour: false,
  hostBehaviour: false,
  log: false,
} satisfies Record<keyof ReferenceHostOptions, boolean>;

/**
 * `--reference-host-config`: a JSON object of options JSON can set. Anything else is refused,
 * not ignored: a misspelt option (`{"evalsuite":false}`) or a value that is no object (`false`)
 * would certify the full host where the user asked for another.
 */
export function readReferenceHostConfig(text: string): { ok: true; config: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `--reference-host-config is not JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: `--reference-host-config must be a JSON object of the reference host's options, got ${text}` };
  const settable = (name: string) => Object.hasOwn(CONFIG_OPTIONS, name) && CONFIG_OPTIONS[name as keyof typeof CONFIG_OPTIONS];
  const unknown = Object.keys(value).find((name) => !settable(name));
  if (unknown !== undefined)
    return {
      ok: false,
      problem: `--reference-host-config: ${JSON.stringify(unknown)} is not an option JSON can set (${Object.keys(CONFIG_OPTIONS).filter(settable).join(', ')})`,
    };
  return { ok: true, config: value as Record<string, unknown> };
}

/** The reference host a command starts: what `startReferenceHost` resolves to. */
export type ReferenceHost = Awaited<ReturnType<ReferenceHostModule['startReferenceHost']>>;

/** The longest wait for the host's thread to end once closed, before it is stopped. */
const CLOSE_BOUND_MS = 10_000;

/**
 * The embedded reference host, handed to `run` by the composition root (commands/cli.ts). From
 * the build it runs on a thread of its own (./host-thread.ts, ./reference-host-worker.ts), so the
 * host and the harness use two cores; from the TypeScript sources (tsx, the tests) in this
 * thread, as a worker thread does not inherit the loader that reads them.
 */
export const startEmbeddedReferenceHost: EmbeddedHostFactory = async (options) => {
  if (threadPossible()) return startOnThread(options);
  const { startReferenceHost } = await importReferenceHost();
  return startReferenceHost(options);
};

/** Loaded when asked for, so that a run against a URL never loads the host or its store. */
export function importReferenceHost(): Promise<ReferenceHostModule> {
  return import('../../hosts/reference/server.ts');
}

function startOnThread(options: Record<string, unknown>): Promise<EmbeddedHost> {
  const { log, ...data } = options;
  const say = typeof log === 'function' ? (log as (message: string) => void) : (message: string) => console.error(`[reference-host] ${message}`);
  const worker = takeHostThread();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage(data);
  return new Promise<EmbeddedHost>((resolve, reject) => {
    let closed: (() => void) | undefined;
    // After the start, a failure of the host's thread is said: its requests then go unanswered.
    worker.on('error', (error) => {
      say(`the reference host's thread failed: ${error.message}`);
      reject(error);
    });
    worker.on('message', (message: FromHostThread) => {
      if ('log' in message) say(message.log);
      else if ('failed' in message) reject(Object.assign(new Error(message.failed.message), { name: message.failed.name }));
      else if ('closed' in message) closed?.();
      else
        resolve({
          ...message.started,
          async close() {
            const done = new Promise<void>((confirm) => (closed = confirm));
            worker.postMessage('close');
            const bound = setTimeout(() => void worker.terminate(), CLOSE_BOUND_MS);
            await Promise.race([done.then(() => exited), exited]);
            clearTimeout(bound);
          },
        });
    });
    exited.then(() => reject(new Error('the reference host thread ended before it started')));
  });
}
