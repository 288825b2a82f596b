// The embedded reference host as the commands reach it: `run` is handed it (lib/certify.ts) when
// no --base-url is given, and `host` starts it. The only module of lib/ that imports hosts/.

import type { KeyObject } from 'node:crypto';
import { statSync } from 'node:fs';
import type { EmbeddedHost, EmbeddedHostFactory } from '../../lib/certify.ts';
import { oneLine } from '../../lib/io.ts';
import { isJsonObject } from '../../lib/json-value.ts';
import { MAX_TIMER_MS } from '../../lib/timers.ts';
import { validate } from '../../lib/schemas/index.ts';
import { buildDiscovery, IMPLEMENTATION_NAME, resolveFacets } from '../../hosts/reference/discovery.ts';
import { resolvePublishing, resolveSwitches, resolveTenants, VENDOR } from '../../hosts/reference/start-options.ts';
import type { FromHostThread } from './reference-host-worker.ts';
import { takeHostThread, threadPossible } from './host-thread.ts';

type ReferenceHostModule = typeof import('../../hosts/reference/server.ts');
type ReferenceHostOptions = NonNullable<Parameters<ReferenceHostModule['startReferenceHost']>[0]>;

/** A check of one option's value: what is wrong with it, in words, or undefined. */
type Check = (value: unknown) => string | undefined;

/** The value as a message may show it: a number, true, false or null, never text (it may be a key). */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (value === '') return 'an empty string';
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const integerFrom =
  (min: number, max: number): Check =>
  (value) =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? undefined
      : `must be an integer from ${min} to ${max}, got ${shown(value)}`;

const milliseconds =
  (min: number): Check =>
  (value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS
      ? undefined
      : `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${shown(value)}`;

const trueOrFalse: Check = (value) => (typeof value === 'boolean' ? undefined : `must be true or false, got ${shown(value)}`);

const text: Check = (value) => (typeof value === 'string' && value !== '' ? undefined : `must be a string that is not empty, got ${shown(value)}`);

const folder: Check = (value) => text(value) ?? (isFolder(value as string) ? undefined : `names no folder: ${value as string}`);

/** A JSON object of strings, with only the members `names`. */
const stringsOf =
  (names: readonly string[]): Check =>
  (value) => {
    const problem = `must be a JSON object of ${names.join(', ')}, each a string that is not empty`;
    if (!isJsonObject(value)) return `${problem}, got ${shown(value)}`;
    const wrong = Object.keys(value).find((name) => !names.includes(name) || text(value[name]) !== undefined);
    if (wrong === undefined) return undefined;
    return `${problem}; ${JSON.stringify(wrong)} is ${names.includes(wrong) ? shown(value[wrong]) : 'none of them'}`;
  };

const tenants: Check = (value) => {
  const problem = 'must be a JSON object of a and b, each a JSON object of tenantId and apiKey, strings that are not empty';
  if (!isJsonObject(value)) return `${problem}, got ${shown(value)}`;
  for (const [name, credentials] of Object.entries(value)) {
    if (name !== 'a' && name !== 'b') return `${problem}; ${JSON.stringify(name)} is none of them`;
    if (!isJsonObject(credentials)) return `${problem}; ${name} is ${shown(credentials)}`;
    for (const [member, given] of Object.entries(credentials)) {
      if (member !== 'tenantId' && member !== 'apiKey') return `${problem}; ${name}.${member} is none of them`;
      if (text(given) !== undefined) return `${problem}; ${name}.${member} is ${shown(given)}`;
    }
  }
  return undefined;
};

/**
 * The reference host's options, each with the check of its value where JSON can set it (`run
 * --reference-host-config`), false where it takes a function. The type check holds the list to
 * ReferenceHostOptions; a value outside what the host takes is refused here, as one line and a
 * usage error, rather than failing the host's start as a harness failure.
 */
const CONFIG_OPTIONS = {
  port: integerFrom(0, 65535),
  dbPath: text,
  tenants,
  evalSuite: (value) => (value === false || isJsonObject(value) ? undefined : `must be false or a JSON object of members of the facet, got ${shown(value)}`),
  seams: trueOrFalse,
  runEffects: trueOrFalse,
  holds: trueOrFalse,
  liveToolErrors: trueOrFalse,
  replay: trueOrFalse,
  fixturesDir: folder,
  validateTraffic: (value) => (value === 'strict' || value === 'off' ? undefined : `must be "strict" or "off", got ${shown(value)}`),
  signingKey: text,
  publishedKey: text,
  signingKeyId: text,
  paceMs: milliseconds(0),
  implementation: stringsOf(['name', 'version', 'vendor']),
  bodyTimeoutMs: milliseconds(1),
  keepAliveMs: milliseconds(1),
  onTrafficViolation: false,
  engineBehaviour: false,
  hostBehaviour: false,
  log: false,
} satisfies Record<keyof ReferenceHostOptions, Check | false>;

/**
 * `--reference-host-config`: a JSON object of options JSON can set, each a value the host takes.
 * Anything else is refused, not ignored: a misspelt option (`{"evalsuite":false}`) or a value that
 * is no object (`false`) would certify the full host where the user asked for another, and a value
 * the host cannot start with (`{"port":-5}`) is the user's to change, not a harness failure.
 */
export function readReferenceHostConfig(text: string): { ok: true; config: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `--reference-host-config is not JSON (${(error as Error).message})` };
  }
  if (!isJsonObject(value)) return { ok: false, problem: `--reference-host-config must be a JSON object of the reference host's options, got ${text}` };
  const checkOf = (name: string): Check | false => (Object.hasOwn(CONFIG_OPTIONS, name) ? CONFIG_OPTIONS[name as keyof typeof CONFIG_OPTIONS] : false);
  const unknown = Object.keys(value).find((name) => checkOf(name) === false);
  if (unknown !== undefined)
    return {
      ok: false,
      problem: `--reference-host-config: ${JSON.stringify(unknown)} is not an option JSON can set (${Object.keys(CONFIG_OPTIONS)
        .filter((name) => checkOf(name) !== false)
        .join(', ')})`,
    };
  for (const [name, option] of Object.entries(value)) {
    const problem = (checkOf(name) as Check)(option);
    if (problem !== undefined) return { ok: false, problem: `--reference-host-config: ${JSON.stringify(name)} ${problem}` };
  }
  const refused = refusedByTheHost(value);
  if (refused !== undefined) return { ok: false, problem: `--reference-host-config: ${refused}` };
  return { ok: true, config: value };
}

/**
 * What the host would refuse at its start in options of the right kinds: its tenants and keys,
 * checked by the host's own functions, and the discovery document they make, checked against its
 * schema as the host checks it (unless `validateTraffic` is `off`, under which the host sends it
 * unchecked).
 */
function refusedByTheHost(config: Record<string, unknown>): string | undefined {
  const options = config as ReferenceHostOptions;
  let published: { publicKey: KeyObject; keyId: string };
  try {
    resolveTenants(options.tenants);
  } catch (error) {
    return `"tenants": ${(error as Error).message}`;
  }
  try {
    published = resolvePublishing(options);
  } catch (error) {
    const [name, kind] = options.publishedKey !== undefined ? ['publishedKey', 'public'] : ['signingKey', 'private'];
    const message = oneLine((error as Error).message);
    // The host's own words name the option ("publishedKey must be …"); node:crypto's do not.
    if (message.startsWith(`${name} must `)) return `${JSON.stringify(name)}${message.slice(name.length)}`;
    return `${JSON.stringify(name)} must be an Ed25519 ${kind} key in PEM (${message})`;
  }
  if (options.validateTraffic === 'off') return undefined;
  const document = buildDiscovery({
    implementation: { name: IMPLEMENTATION_NAME, version: '0.0.0', vendor: VENDOR, ...options.implementation },
    facets: resolveFacets(options.evalSuite),
    ...resolveSwitches(options),
    fixtures: [],
    ...published,
  });
  const check = validate('capabilities', document);
  if (check.ok) return undefined;
  return `the host would advertise a discovery document that fails its schema: ${check.errors.slice(0, 3).join('; ')}`;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
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

/** The errors of a listen the machine refuses: the user's to change, not a harness bug. */
const LISTEN_CODES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is in use',
  EACCES: 'this user may not listen on it',
  EADDRNOTAVAIL: 'the address is not available',
};

/**
 * Starts the embedded host with `options`. A listen the machine refuses (a port in use) is the
 * user's to change: one line; any other failure of the start throws, a harness bug.
 */
export async function startEmbedded(
  factory: EmbeddedHostFactory,
  options: Record<string, unknown>,
): Promise<{ ok: true; host: EmbeddedHost } | { ok: false; problem: string }> {
  try {
    return { ok: true, host: await factory(options) };
  } catch (error) {
    const problem = listenProblem(error, options.port);
    if (problem === undefined) throw error;
    return { ok: false, problem };
  }
}

function listenProblem(error: unknown, port: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !Object.hasOwn(LISTEN_CODES, code)) return undefined;
  const where = typeof port === 'number' && port !== 0 ? `port ${port}` : 'a free port';
  return `the embedded reference host cannot listen on ${where} of 127.0.0.1: ${LISTEN_CODES[code]} (${code}); give another in --reference-host-config, or {"port":0} for any free one`;
}

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
      else if ('failed' in message) reject(Object.assign(new Error(message.failed.message), message.failed));
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
