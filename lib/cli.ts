// The command line: `run` (certify a host, or the server-free checks with --offline), `verify`
// (check a bundle), `grade` (recompute a run's grade from its events) and `host` (start the
// reference host). Flags and environment names follow the OpenWOP conformance suite where they
// overlap (docs/wire.md §13); a flag wins over its environment variable.

import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { gradeRun } from './grader/index.ts';
import { checkSuite, validateRunEvent } from './schemas/index.ts';
import type { EmbeddedHostFactory } from './certify.ts';
import { certify, runOffline } from './run.ts';
import { verifyCommand } from './verify.ts';
import { JsonTooDeep, parseJsonBounded } from './json-depth.ts';

export const EXIT_CODES_HELP = `
Exit codes:
  run     0 every executed row passed and none is blocked; 1 a row failed or is blocked;
          2 the run could not start (bad flags, host discovery unreachable), or the harness failed
  verify  0 authentic and certified; 1 rejected; 2 an input problem (flags, a key file missing,
          unreadable or private, --discovery unreachable); 3 not a bundle; 4 not certified or
          incomplete; 5 certified on its face but not independently verified (no host key)
  grade   0 graded; 2 a file is missing, not JSON, or not a suite / run events
  host    runs until interrupted; 2 when it cannot start`;

/** Runs the CLI and returns its exit code; never calls process.exit itself. */
/**
 * The embedded reference host, handed to `run` by this command layer (lib/certify.ts): the only
 * place below bin/ that reaches into hosts/, and only when no --base-url is given.
 */
const startEmbeddedReferenceHost: EmbeddedHostFactory = async (options) => {
  const { startReferenceHost } = await import('../hosts/reference/server.ts');
  return startReferenceHost(options);
};

export async function main(argv: string[], io: { out: (s: string) => void; err: (s: string) => void } = defaultIo()): Promise<number> {
  let exitCode = 0;
  const program = new Command('openwop-eval-conformance')
    .description('Black-box conformance harness for the OpenWOP v2 agent-evaluation surface (RFC 0081, 0244, 0252)')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError();

  program
    .command('run')
    .description('certify a host (the embedded reference host when no --base-url is given), or run the server-free checks with --offline')
    .option('--offline', 'run only the server-free legs (schemas and fixtures)')
    .option('--list', 'print every requirement id and rule with the RFC statements it witnesses, and run nothing')
    .option('--base-url <url>', 'the host to certify (env OPENWOP_BASE_URL)')
    .option('--api-key <key>', "tenant A's API key (env OPENWOP_API_KEY)")
    .option('--tenant-b-api-key <key>', "a second tenant's key, for the cross-tenant legs (env OPENWOP_TEST_TENANT_B_API_KEY)")
    .option('--require-behavior', 'fail, rather than skip, what the host does not advertise or lets nobody observe (env OPENWOP_REQUIRE_BEHAVIOR=true)')
    .option('--filter <text>', 'only the requirement ids or titles containing this text')
    .option('--report-json <file>', 'write the rows and totals as JSON')
    .option('--junit <file>', 'write the rows as JUnit XML')
    .option('--certify <file>', 'write a signed certification bundle v3 to this file')
    .option('--signing-key <pem>', 'Ed25519 PKCS8 private key file to sign the bundle (env OPENWOP_BUNDLE_SIGNING_KEY)')
    .option('--signing-key-id <id>', 'the keyId the host publishes for that key (env OPENWOP_BUNDLE_SIGNING_KEY_ID)')
    .option('--host-build <kind:id>', 'image-digest|commit|artifact-sha256:<id> (env OPENWOP_HOST_BUILD)')
    .option('--request-timeout <ms>', 'bound on each HTTP request, default 10000 (env OPENWOP_REQUEST_TIMEOUT_MS)')
    .option('--leg-deadline <ms>', 'bound on each host leg; a leg past it is blocked and the rest still run, default 180000 (env OPENWOP_LEG_DEADLINE_MS)')
    .option('--run-deadline <ms>', 'bound on the whole run; past it the rows not reached are blocked and every output is written (env OPENWOP_RUN_DEADLINE_MS)')
    .option('--max-events <n>', 'cap on the events read from one run; past it the row is blocked, naming the cap, default 100000 (env OPENWOP_MAX_EVENTS)')
    .option('--max-response-bytes <n>', "cap on the bytes of one response (one run's event log counts as one); past it the row is blocked, naming the cap, default 8388608 (env OPENWOP_MAX_RESPONSE_BYTES)")
    .option('--concurrency <n>', 'host legs in flight at most, 1 to 64; a leg reading shared host state always runs alone; default 8 (env OPENWOP_MAX_WORKERS)')
    .addOption(new Option('--reference-host-config <json>', 'embedded host only: JSON options for the reference host (e.g. {"evalSuite":false})').hideHelp())
    .action(async (options) => {
      if (options.list) {
        const [{ loadScenarios }, { listing, readTraceability }] = await Promise.all([import('./scenarios.ts'), import('./traceability.ts')]);
        io.out(listing(await loadScenarios(), readTraceability()));
        exitCode = 0;
        return;
      }
      exitCode = options.offline ? await runOffline(options, io) : await certify(options, io, startEmbeddedReferenceHost);
    });

  program
    .command('verify')
    .description('verify a certification bundle v3: every rejection, its signature, its totals and whether it certifies the host')
    .argument('<bundle>', 'the bundle file')
    .option('--host-key <pem>', "the host's Ed25519 public key (PEM file)")
    .option('--discovery <url>', "read the host's signingKeys from its discovery document")
    .action(async (bundle: string, options) => {
      exitCode = await verifyCommand(bundle, options, io);
    });

  program
    .command('grade')
    .description("recompute the reference grade of an eval run from its own event log")
    .requiredOption('--suite <file>', 'the AgentEvalSuite (or an eval-suite fixture document) as JSON')
    .requiredOption('--events <file>', 'the run events, as a JSON array or NDJSON')
    .action((options: { suite: string; events: string }) => {
      exitCode = gradeCommand(options, io);
    });

  program
    .command('host')
    .description('start the embedded reference host on 127.0.0.1 and print its base URL and tenant keys')
    .option('--port <port>', 'port to bind (0 picks a free one)', '3838')
    .option('--db <file>', 'SQLite file (default: in memory)')
    .action(async (options: { port: string; db?: string }) => {
      exitCode = await hostCommand(options, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? 0 : 2;
    }
    throw error;
  }
  return exitCode;
}

function defaultIo() {
  return { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s) };
}

type Io = { out: (s: string) => void; err: (s: string) => void };

/** Reads a JSON file; the error names the file and the problem in one line. */
export function readJsonFile(path: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, message: `${path}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    return { ok: true, value: parseJsonBounded(text, `${path}: the ${what}`) };
  } catch (error) {
    if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
    return { ok: false, message: `${path}: the ${what} is not JSON (${(error as Error).message})` };
  }
}

/** A JSON array of events, or NDJSON (one event per non-empty line). */
function readEvents(path: string): { ok: true; events: unknown[] } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, message: `${path}: cannot read the events (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  if (text.trimStart().startsWith('[')) {
    try {
      const value = parseJsonBounded(text, `${path}: the events`);
      return Array.isArray(value) ? { ok: true, events: value } : { ok: false, message: `${path}: the events are not a JSON array` };
    } catch (error) {
      if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
      return { ok: false, message: `${path}: the events are not JSON (${(error as Error).message})` };
    }
  }
  const events: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      events.push(parseJsonBounded(line, `${path}:${i + 1}: the event`));
    } catch (error) {
      if (error instanceof JsonTooDeep) return { ok: false, message: error.message };
      return { ok: false, message: `${path}:${i + 1}: not a JSON event (${(error as Error).message})` };
    }
  }
  return { ok: true, events };
}

function gradeCommand(options: { suite: string; events: string }, io: Io): number {
  const suiteFile = readJsonFile(options.suite, 'suite');
  if (!suiteFile.ok) return fail(io, suiteFile.message);
  const value = suiteFile.value as Record<string, unknown> | null;
  // An eval-suite fixture document carries its suite under `suite`.
  const suite = value !== null && typeof value === 'object' && 'suite' in value && 'expectedGrade' in value ? value.suite : value;
  const suiteCheck = checkSuite(suite);
  if (!suiteCheck.ok) return fail(io, `${options.suite}: not an AgentEvalSuite (${suiteCheck.errors.slice(0, 3).join('; ')})`);
  const read = readEvents(options.events);
  if (!read.ok) return fail(io, read.message);
  for (let i = 0; i < read.events.length; i += 1) {
    const check = validateRunEvent(read.events[i]);
    if (!check.ok) return fail(io, `${options.events}: event ${i} is not a v2 run event (${check.errors.slice(0, 3).join('; ')})`);
  }
  const grade = gradeRun(suite as Parameters<typeof gradeRun>[0], read.events as Parameters<typeof gradeRun>[1]);
  io.out(`${JSON.stringify(grade, null, 2)}\n`);
  return 0;
}

async function hostCommand(options: { port: string; db?: string }, io: Io): Promise<number> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return fail(io, `--port: not a port number: ${options.port}`);
  const { startReferenceHost } = await import('../hosts/reference/server.ts');
  let host;
  try {
    host = await startReferenceHost({ port, dbPath: options.db });
  } catch (error) {
    return fail(io, `the reference host could not start: ${(error as Error).message}`);
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

function fail(io: Io, message: string): number {
  io.err(`openwop-eval-conformance: ${message}\n`);
  return 2;
}
