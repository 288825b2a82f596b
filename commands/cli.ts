// The composition root, the command line: `run` (certify a host, or the server-free checks with
// --offline), `verify` (check a bundle), `grade` (recompute a run's grade from its events) and
// `host` (start the reference host), each a module beside this one. This is the only module that
// imports commands; a command imports commands/support/ and the library layers of lib/, never
// another command (test/layering.test.ts). Flags and environment names follow the OpenWOP
// conformance suite where they overlap (docs/wire.md §13); a flag wins over its environment
// variable.

import { Command, CommanderError, Option } from 'commander';
import { certify, PROGRESS_MODES, runOffline } from './run.ts';
import type { EmbeddedHostFactory } from '../lib/certify.ts';
// verify, grade and host are loaded when asked for: a certification's first request waits on
// what `run` loads, and nothing else (bench/RESULTS.md "Waiting: process start to first request").
import type { GradeOptions } from './grade.ts';
import type { HostOptions } from './host.ts';
import { MAX_GENERATED_SUITES } from './support/generated-plan.ts';
import { startEmbeddedReferenceHost } from './support/reference-host.ts';
import { packageIdentity } from '../lib/package-root.ts';
import { DEFAULT_CAPS } from '../lib/ledger/caps.ts';
import { DEFAULT_LEG_DEADLINE_MS, DEFAULT_PROGRESS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_RUN_DEADLINE_MS } from '../lib/ledger/deadlines.ts';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../lib/ledger/schedule.ts';
import { DEFAULT_GENERATED_SUITES } from '../lib/ledger/target.ts';
import { PROGRAM, printableIo, type Io } from '../lib/io.ts';
import { usage } from './support/usage.ts';

/** The Examples section of each command's --help (docs/cli.md has the same commands). */
export const EXAMPLES_HELP = {
  run: `
Examples:
  $ ${PROGRAM} run                                  # certify the embedded reference host
  $ ${PROGRAM} run --offline                        # the server-free checks only
  $ ${PROGRAM} run --list                           # every requirement id and rule
  $ ${PROGRAM} run --base-url https://host.example --api-key "$KEY" --tenant-b-api-key "$KEY_B" \\
      --require-behavior --html report.html --junit junit.xml
  $ ${PROGRAM} run --base-url https://host.example --api-key "$KEY" --filter '0244\\.(trial|fixture)'
  $ ${PROGRAM} run --base-url https://host.example --api-key "$KEY" --certify bundle.json \\
      --signing-key host.pem --signing-key-id host-key-1 --host-build commit:$SHA`,
  verify: `
Examples:
  $ ${PROGRAM} verify bundle.json --host-key host.pub.pem
  $ ${PROGRAM} verify bundle.json --discovery https://host.example
  $ ${PROGRAM} --verify bundle.json --host-key host.pub.pem   # the OpenWOP CLI's spelling`,
  grade: `
Examples:
  $ ${PROGRAM} grade --suite suite.json --events events.ndjson
  $ ${PROGRAM} grade --suite suite.json --base-url https://host.example --api-key "$KEY" --run RUN_ID`,
  host: `
Examples:
  $ ${PROGRAM} host                       # on 127.0.0.1:3838, in memory
  $ ${PROGRAM} host --port 0 --db host.sqlite
  $ ${PROGRAM} host --write-signing-key host.pem --signing-key-id host-key-1   # a key to certify with`,
} as const;

/** Each command's exit codes, as README "Exit codes" and docs/auditing.md give them. */
const EXIT_CODES = {
  run: `  run     0 every executed row passed (or failed as --expected-failures lists) and none is blocked;
          1 a row failed or is blocked, or an expected failure passed (a stale entry), or the run
          deadline ended the run;
          2 the run could not start (bad flags or files, an output path that cannot be written,
          a filter that keeps no leg, discovery unreachable, the API key refused), a report could
          not be written, or the harness failed;
          4 with --certify: the bundle is written but certifies nothing (no eval profile is
          claimed, or every claimed one is denied) and no row failed;
          130, 143 interrupted by SIGINT, by SIGTERM (every output still written)`,
  verify: `  verify  0 authentic, and some eval profile certified; 1 rejected (an upstream rule or this
          harness's check); 2 an input problem (flags, a key file missing, unreadable or private,
          --discovery unreachable or not publishing the key); 3 not a bundle; 4 nothing
          certified; 5 certified on its face but not independently verified (no host key);
          6 another suite's bundle: the eval verdict does not apply`,
  grade: `  grade   0 graded, or with --base-url or --archive every served member equals the recomputed
          one; 1 a served member differs; 2 a usage, file or transport problem`,
  host: '  host    runs until interrupted; 2 when it cannot start',
} as const;

export const EXIT_CODES_HELP = `\nExit codes:\n${Object.values(EXIT_CODES).join('\n')}`;

/** One command's exit codes, after its examples in its own --help. */
function exitCodesOf(command: keyof typeof EXIT_CODES): string {
  return `\nExit codes:\n${EXIT_CODES[command]}`;
}

/**
 * The flags of the OpenWOP conformance CLI this harness does not take, each with what to use
 * here (docs/openwop-cli.md): a vendor's habit meets its equivalent, not "unknown option".
 */
const OPENWOP_CLI_ONLY: Readonly<Record<string, string>> = {
  '--impl': 'the implementation name is read from discovery `implementation.name`',
  '--implementation-name': 'the implementation name is read from discovery `implementation.name`',
  '--impl-version': 'the implementation version is read from discovery `implementation.version`',
  '--implementation-version': 'the implementation version is read from discovery `implementation.version`',
  '--target-major': 'this harness certifies the v2 evaluation surface only (major 2)',
  '--bundle-version': 'this harness cuts bundle v3 only',
  '--verifier-key': 'this harness cuts no independent evidence; cut the bundle at --evidence-tier self or steward',
  '--verifier-key-id': 'this harness cuts no independent evidence; cut the bundle at --evidence-tier self or steward',
};

/**
 * The OpenWOP conformance CLI's `--verify FILE [--host-key PEM]`, with no command before it, is
 * this harness's `verify FILE [--host-key PEM]`; the argument list rewritten to that.
 */
function verifyAlias(argv: readonly string[]): string[] | undefined {
  if (argv.length === 0 || !argv[0]!.startsWith('-')) return undefined;
  const at = argv.findIndex((arg) => arg === '--verify' || arg.startsWith('--verify='));
  if (at === -1) return undefined;
  const inline = argv[at]!.startsWith('--verify=') ? argv[at]!.slice('--verify='.length) : undefined;
  const file = inline ?? argv[at + 1];
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline === undefined ? 2 : 1))];
  return file === undefined ? ['verify', ...rest] : ['verify', file, ...rest];
}

/**
 * Runs the CLI and returns its exit code; never calls process.exit itself. `embeddedHost` is the
 * reference host `run` starts without --base-url (the tests hand in one that fails).
 */
export async function main(givenArgv: string[], givenIo: Io = defaultIo(), embeddedHost: EmbeddedHostFactory = startEmbeddedReferenceHost): Promise<number> {
  // Every line a command prints shows what a host sent, never acts on it (lib/io.ts `printable`).
  const io = printableIo(givenIo);
  if (givenArgv.length === 0) return usage(io, 'a command is required: run, verify, grade or host');
  const aliased = verifyAlias(givenArgv);
  if (aliased !== undefined)
    io.err(
      'note: --verify FILE is the verify command here; its exit codes are this harness\'s: 5, not the OpenWOP CLI\'s 2, for "not independently verified" (see --help)\n',
    );
  const argv = aliased ?? givenArgv;
  let exitCode = 0;
  const program = new Command(PROGRAM)
    .description('Black-box conformance harness for the OpenWOP v2 agent-evaluation surface (RFC 0081, 0244, 0252)')
    .version(packageIdentity().version, '-V, --version', 'print the version of this harness')
    .exitOverride()
    // A usage error is one line (README "Exit codes"), never the whole help after it.
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      outputError: (text) => {
        const line = text
          .trim()
          .replace(/^error: /, '')
          .replace(/\s*\n\s*/g, ' ');
        const flag = /^unknown option '([^'=]+)/.exec(line)?.[1];
        const instead = flag === undefined ? undefined : OPENWOP_CLI_ONLY[flag];
        if (instead !== undefined) return usage(io, `${flag} is a flag of the OpenWOP conformance CLI that this harness does not take: ${instead}`);
        if (flag === '--verify') return usage(io, '--verify FILE is the verify command here: openwop-eval-conformance verify FILE --host-key PEM');
        return usage(io, line);
      },
    })
    .addHelpText('after', EXIT_CODES_HELP);

  program
    .command('run')
    .description('certify a host (the embedded reference host when no --base-url is given), or run the server-free checks with --offline')
    .option('--offline', 'run only the server-free legs (schemas and fixtures)')
    .option('--list', 'print every requirement id and rule with the RFC statements it witnesses, and run nothing')
    .option('--base-url <url>', 'the host to certify (env OPENWOP_BASE_URL)')
    .option('--api-key <key>', "tenant A's API key (env OPENWOP_API_KEY)")
    .option('--tenant-b-api-key <key>', "a second tenant's key, for the cross-tenant legs (env OPENWOP_TEST_TENANT_B_API_KEY)")
    .option('--require-behavior', 'fail, rather than skip, what the host does not advertise or lets nobody observe (env OPENWOP_REQUIRE_BEHAVIOR=true)')
    .option(
      '--filter <pattern>',
      'only the requirement ids or titles matching this regular expression (as the OpenWOP CLI reads it), or containing it when it is not one; the run says which',
    )
    .option('--report-json <file>', 'write the rows and totals as JSON')
    .option('--junit <file>', 'write the rows as JUnit XML')
    .option('--html <file>', 'write a self-contained HTML report: the verdict, the totals and every row, filterable by disposition')
    .option(
      '--summary <file>',
      'write a Markdown summary: the verdict, the totals and the rows that did not pass (also appended to $GITHUB_STEP_SUMMARY when it is set)',
    )
    .option('--otel <file>', 'write OpenTelemetry logs as OTLP JSON: a gen_ai.evaluation.result record per eval.scored the host sent (RFC 0244 §E) and per row')
    .option(
      '--expected-failures <file>',
      'a JSON list of requirement ids expected to fail, each with a reason: they do not fail the run, and one that passes does (schemas/expected-failures.schema.json)',
    )
    .option('--certify <file>', 'write a signed certification bundle v3 to this file')
    .option(
      '--archive <file>',
      'write every exchange with the host as HAR 1.2 (gzip when FILE ends in .gz), redacted; with --certify, bound to the bundle by a signed FILE.sig.json (default with --certify: beside the bundle, BUNDLE.archive.har.gz)',
    )
    .option('--signing-key <pem>', 'Ed25519 PKCS8 private key file to sign the bundle (env OPENWOP_BUNDLE_SIGNING_KEY)')
    .option('--signing-key-id <id>', 'the keyId the host publishes for that key (env OPENWOP_BUNDLE_SIGNING_KEY_ID)')
    .option('--host-build <kind:id>', 'image-digest|commit|artifact-sha256:<id> (env OPENWOP_HOST_BUILD)')
    .option('--request-timeout <ms>', `bound on each HTTP request, default ${DEFAULT_REQUEST_TIMEOUT_MS} (env OPENWOP_REQUEST_TIMEOUT_MS)`)
    .option(
      '--leg-deadline <ms>',
      `bound on each host leg; a leg past it is blocked and the rest still run, default ${DEFAULT_LEG_DEADLINE_MS} (env OPENWOP_LEG_DEADLINE_MS)`,
    )
    .option(
      '--run-deadline <ms>',
      `bound on the whole run; past it the rows not reached are blocked and every output is written, default ${DEFAULT_RUN_DEADLINE_MS} (env OPENWOP_RUN_DEADLINE_MS)`,
    )
    .option(
      '--progress-timeout <ms>',
      `longest wait for a new event of a run (keep-alives are not events); past it the row is blocked "no progress", default ${DEFAULT_PROGRESS_TIMEOUT_MS} (env OPENWOP_PROGRESS_TIMEOUT_MS)`,
    )
    .option(
      '--max-events <n>',
      `cap on the events read from one run; past it the row is blocked, naming the cap, default ${DEFAULT_CAPS.maxEvents} (env OPENWOP_MAX_EVENTS)`,
    )
    .option(
      '--max-response-bytes <n>',
      `cap on the bytes of one response (one run's event log counts as one); past it the row is blocked, naming the cap, default ${DEFAULT_CAPS.maxResponseBytes} (env OPENWOP_MAX_RESPONSE_BYTES)`,
    )
    .option(
      '--max-events-in-flight <n>',
      `cap on the events held by all the runs read at once; past it the row is blocked, naming the cap, default ${DEFAULT_CAPS.maxEventsInFlight} (env OPENWOP_MAX_EVENTS_IN_FLIGHT)`,
    )
    .option(
      '--max-bytes-in-flight <n>',
      `cap on the event bytes held by all the runs read at once; past it the row is blocked, naming the cap, default ${DEFAULT_CAPS.maxBytesInFlight} (env OPENWOP_MAX_BYTES_IN_FLIGHT)`,
    )
    .addOption(
      new Option('--progress <mode>', 'auto: one line redrawn on a terminal, nothing on a pipe; lines: a line per finished leg; none')
        .choices(PROGRESS_MODES)
        .default('auto'),
    )
    .option(
      '--concurrency <n>',
      `host legs in flight at most, 1 to ${MAX_CONCURRENCY}; a leg reading shared host state always runs alone; default ${DEFAULT_CONCURRENCY} (env OPENWOP_MAX_WORKERS)`,
    )
    .option(
      '--seed <hex>',
      "the certification's seed, 16 to 64 lower-case hex digits: every generated value derives from it, so a run replays; explore: a fresh one; default one derived from the host's discovery, so two runs of one host give the same rows; printed",
    )
    .option(
      '--generated <n>',
      `eval suites the generated-suites leg generates within what the host advertises, 0 to ${MAX_GENERATED_SUITES}; default ${DEFAULT_GENERATED_SUITES}`,
    )
    .option('--suite <file>', 'the generated-suites leg certifies with exactly this AgentEvalSuite (a *.repro.json it wrote) instead of generating')
    .option('--baseline-suite <file>', "with --suite: the reproducer's baseline suite (a *.repro.baseline.json)")
    .option('--max-workers <n>', "--concurrency by the OpenWOP CLI's name")
    .option(
      '--evidence-tier <tier>',
      'with --certify: self (default) or steward, the tier each claimed profile carries; independent is refused (it needs a verifier signature this harness does not make)',
    )
    .option('--reference-host-config <json>', 'embedded host only: JSON options for the reference host (e.g. {"evalSuite":false})')
    .addHelpText('after', EXAMPLES_HELP.run)
    .addHelpText('after', exitCodesOf('run'))
    .action(async (options) => {
      if (options.list) {
        const [{ loadScenarios }, { listing, readTraceability }] = await Promise.all([import('../scenarios/index.ts'), import('../lib/traceability.ts')]);
        io.out(listing(await loadScenarios(), readTraceability()));
        exitCode = 0;
        return;
      }
      exitCode = options.offline ? await runOffline(options, io) : (await certify(options, io, embeddedHost)).code;
    });

  program
    .command('verify')
    .description('verify a certification bundle v3: every rejection, its signature, its totals and whether it certifies the host')
    .argument('<bundle>', 'the bundle file')
    .option('--host-key <key>', "the host's Ed25519 public key: a PEM file, or the raw base64url key as discovery signingKeys publish it")
    .option('--discovery <url-or-file>', "the key signature.keyId names in a discovery document: a live host's URL or a saved file (retired keys included)")
    .option('--bundle-discovery', "the key from the bundle's own embedded discovery document (self-attested: integrity, not who signed)")
    .option('--eval-certificate <file>', 'the eval certificate, which carries the eval verdict (default: BUNDLE.eval-certificate.json beside the bundle)')
    .option(
      '--replay <archive>',
      "run the certification again against the archive (not the host) and require every row, disposition and the witness digest to be the bundle's; checks the archive's binding (ARCHIVE.sig.json)",
    )
    // The replay's default is the run deadline's (lib/archive/replay-host.ts REPLAY_DEADLINE_MS),
    // named here by the constant `run` already loads, so that the replay host is loaded by verify alone.
    .option(
      '--replay-deadline <ms>',
      `with --replay: bound on the whole replay; past it the legs not done are blocked and it is not reproduced, default ${DEFAULT_RUN_DEADLINE_MS} (no archive setting raises it)`,
    )
    .addHelpText('after', EXAMPLES_HELP.verify)
    .addHelpText('after', exitCodesOf('verify'))
    .action(async (bundle: string, options) => {
      const { verifyCommand } = await import('./verify.ts');
      exitCode = await verifyCommand(bundle, options, io);
    });

  program
    .command('grade')
    .description('recompute the reference grade of an eval run from its own event log; with --base-url, compare it with the summary the host serves')
    .requiredOption('--suite <file>', 'the AgentEvalSuite (or an eval-suite fixture document) as JSON')
    .option('--events <file>', 'the run events: NDJSON, a JSON array, a poll response or an SSE transcript')
    .option('--base-url <url>', "fetch the run's events and served summary from this host instead")
    .option('--api-key <key>', 'with --base-url (env OPENWOP_API_KEY)')
    .option('--archive <archive>', "read the run's events and served summary from a certification's archive (run --archive) instead")
    .option('--run <id>', 'with --base-url or --archive: the eval run')
    .option('--max-events <n>', 'the most events the log may hold, from any source (env OPENWOP_MAX_EVENTS; default 100000, as run)')
    .addHelpText('after', EXAMPLES_HELP.grade)
    .addHelpText('after', exitCodesOf('grade'))
    .action(async (options: GradeOptions) => {
      const { gradeCommand } = await import('./grade.ts');
      exitCode = await gradeCommand(options, io);
    });

  program
    .command('host')
    .description('start the embedded reference host on 127.0.0.1 and print its base URL and tenant keys')
    .option('--port <port>', 'port to bind (0 picks a free one)', '3838')
    .option('--db <file>', 'SQLite file (default: in memory)')
    .option('--publish-key <pem>', 'publish this Ed25519 public key (a PEM file; the vendor keeps the private half) in discovery signingKeys')
    .option('--write-signing-key <file>', 'write a fresh Ed25519 private key to FILE (a new file, mode 600) and publish its public half')
    .option('--signing-key-id <id>', 'the key id the key is published under (required with either of the two above)')
    .addHelpText('after', EXAMPLES_HELP.host)
    .addHelpText('after', exitCodesOf('host'))
    .action(async (options: HostOptions) => {
      const { hostCommand } = await import('./host.ts');
      exitCode = await hostCommand(options, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
  return streamRefused ? 2 : exitCode;
}

function defaultIo(): Io {
  return { out: writerTo(process.stdout), err: writerTo(process.stderr), tty: process.stderr.isTTY === true };
}

const writers = new WeakMap<NodeJS.WriteStream, (text: string) => void>();

/** Standard output or error refused a write for a reason other than its reader going away. */
let streamRefused = false;

/**
 * Writes to `stream` until its reader goes away (`run --list | head`). Node reports the closed
 * pipe as an 'error' event, which would end the process with a stack trace, and mid-run before
 * the report files are written; the command instead writes nothing more there and runs to its
 * end, with its own exit code. A stream that refuses a write for another reason (a file on a full
 * disk, ENOSPC) is not written to again either, but what it lost is said on the other stream in
 * one line and the command exits 2, as for a report the file system stopped accepting (README
 * "Exit codes"): thrown, it was a stack trace and exit 1, a failed row to a CI step.
 */
function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  const known = writers.get(stream);
  if (known !== undefined) return known;
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code === 'EPIPE') return;
    streamRefused = true;
    process.exitCode = 2;
    const [name, other] = stream === process.stdout ? ['standard output', process.stderr] : ['standard error', process.stdout];
    writerTo(other as NodeJS.WriteStream)(`${PROGRAM}: ${name} refused a write (${error.code ?? error.message}): what it did not take is lost\n`);
  });
  const write = (text: string): void => {
    if (!closed) stream.write(text);
  };
  writers.set(stream, write);
  return write;
}
