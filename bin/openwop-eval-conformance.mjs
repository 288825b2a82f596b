#!/usr/bin/env node
// The command. It runs the build (dist/, `npm run build`), which an installed package always
// has: its bundles (dist/bundle/, scripts/bundle.ts) when the build made them, through
// ./bundle-loader.cjs and their code cache, else the modules of dist/. In a clone it runs the
// TypeScript sources through tsx's loader instead when there is no build or a source is newer
// than it, so an edit is never hidden behind a stale build.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { BUILT, buildIsCurrent } from './build-state.mjs';

// V8 optimizes a function once it has run a budget of bytecode. A run of the command is short
// and its code lukewarm: at the default budget the optimizing compiler costs more than it gives
// back. Eight times the default (66 KiB): a certification of the reference host 0.84 → 0.63
// CPU-s, one of 400 generated suites 5.4 → 4.2. And WebAssembly (undici's HTTP parser) stays in
// its baseline compiler: optimizing the parser's one large function cost a short run about a
// tenth of its CPU, a long one gains nothing from it (bench/RESULTS.md "V8's optimization
// budget"). Set before the command's code is compiled; V8 accepts a code cache only under the
// flags it was made with, and the build makes the bundles' caches through this file, so under
// these too.
setFlagsFromString('--interrupt-budget=540672');
setFlagsFromString('--liftoff-only');

const args = process.argv.slice(2);
const built = buildIsCurrent();
if (!built) {
  const { register } = await import('tsx/esm/api');
  register();
}
const BUNDLES = fileURLToPath(new URL('../dist/bundle/', import.meta.url));
const bundled = built && existsSync(`${BUNDLES}command.cjs`);
const require = createRequire(import.meta.url);
/** A module bin/ loads before the command: its bundle (which the command's bundle shares), its built module or its source. */
const early = (bundle, path) =>
  bundled ? require(`${BUNDLES}${bundle}`) : import(built ? new URL(`../dist/${path}.js`, import.meta.url).href : `../${path}.ts`);

// `run --base-url URL`: discovery goes out before the command's modules load, and the client
// takes its answer (lib/client/early-discovery.ts, bench/RESULTS.md "Start-up and npm start").
const earlyUrl = earlyDiscoveryUrl(args);
let discovery;
if (earlyUrl !== undefined) {
  discovery = await early('early-discovery.cjs', 'lib/client/early-discovery');
  discovery.sendEarlyDiscovery(earlyUrl);
}
// `run` of the embedded host: its thread starts now and loads the host while the command loads
// (commands/support/host-thread.ts); from the sources the host runs in the command's thread.
if (built && embeddedHostRun(args)) (await early('host-thread.cjs', 'commands/support/host-thread')).startReferenceHostThread();
const { main } = await (bundled ? require('./bundle-loader.cjs').loadBundle(`${BUNDLES}command.cjs`) : import(built ? BUILT.href : '../commands/cli.ts'));
try {
  process.exitCode = await main(args);
} finally {
  discovery?.dropEarlyExchange();
}
// A command is over when `main` returns: its outputs are written and its host closed (an
// interrupted run has abandoned its legs: commands/run.ts). It exits once standard output and
// error have taken what was written (a pipe may take it later than the write), not after Node has
// freed its heap and environment: 5–6 ms of `npm start` quiet, 25 at load 5 (bench/RESULTS.md
// "npm start (branch start4)").
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
process.exit();

/** Whether the command line stops a `run` before any host is asked: help, version, a listing, an offline run. */
function stopsEarly(arg) {
  return ['--help', '-h', '--version', '-V', '--list', '--offline'].includes(arg);
}

/**
 * Whether the command line is a `run` of the embedded reference host: no --base-url and no
 * OPENWOP_BASE_URL (as commands/support/run-settings.ts reads them), nothing that stops it early.
 * A misreading costs only time: commands/cli.ts still reads the command line whole.
 */
function embeddedHostRun(argv) {
  if (argv[0] !== 'run' || process.env.OPENWOP_BASE_URL !== undefined) return false;
  for (const arg of argv.slice(1)) {
    if (arg === '--') break;
    if (stopsEarly(arg) || arg === '--base-url' || arg.startsWith('--base-url=')) return false;
  }
  return true;
}

/**
 * The host a `run` certifies when the command line names it (`--base-url`, else OPENWOP_BASE_URL,
 * as commands/support/run-settings.ts reads them) and nothing on it stops the run before its
 * first request: no help, version, list or offline run, and an API key given. Anything else
 * sends nothing early; commands/cli.ts still reads the command line whole, and the client uses
 * the early exchange only for exactly its own discovery request.
 */
function earlyDiscoveryUrl(argv) {
  if (argv[0] !== 'run') return undefined;
  let baseUrl = process.env.OPENWOP_BASE_URL || undefined;
  let apiKey = Boolean(process.env.OPENWOP_API_KEY);
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--') break;
    if (stopsEarly(arg)) return undefined;
    if (arg === '--base-url') baseUrl = argv[i + 1];
    else if (arg.startsWith('--base-url=')) baseUrl = arg.slice('--base-url='.length);
    else if (arg === '--api-key' || arg.startsWith('--api-key=')) apiKey = true;
  }
  return apiKey ? baseUrl : undefined;
}
