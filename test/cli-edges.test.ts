// The command line at its edges: usage errors in one line, `--certify` refused before any leg
// when it could not sign, a refused API key in one line, progress printed once, every exit code
// of `run` (README "Exit codes"), and docs/cli.md naming every flag. test/cli-bounds.test.ts
// holds what the command is given at its edges: streams, input files, folders, values;
// test/cli-outputs.test.ts the files a run writes.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { busyPort } from './support/busy-port.ts';
import { cli, cliWith } from './support/cli.ts';
import { forward } from './support/forward.ts';
import { main } from '../commands/cli.ts';
import { packagePath } from '../lib/package-root.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-edges-'));
const key = generateDevKeyPair();
writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
writeFileSync(join(dir, 'not-a-key.pem'), 'not a key\n');
writeFileSync(join(dir, 'a-file'), 'a file, not a folder\n');
mkdirSync(join(dir, 'a-folder'));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A loopback server answering with `handle`; counts the requests it is sent. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests: () => requests };
}

const notFound = (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"not_found","message":"nothing here"}');
};

/** The reference host behind a proxy that answers `401 unauthenticated` where `refuse` says so. */
async function refusingHost(refuse: (req: IncomingMessage) => boolean): Promise<{ url: string; apiKey: string; tenantBApiKey: string }> {
  const host = await startReferenceHost({ log: () => {} });
  cleanups.push(() => host.close());
  const upstream = new URL(host.baseUrl);
  const proxy = await serve((req, res) => {
    if (!refuse(req)) return forward(upstream, req, res);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"error":"unauthenticated","message":"a valid API key is required"}');
  });
  return { url: proxy.url, apiKey: host.tenants.a.apiKey, tenantBApiKey: host.tenants.b.apiKey };
}

function expectOneLine(err: string): void {
  expect(err.trimEnd().split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/\n\s+at |Usage:/);
}

describe('a usage error', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['an unknown command', ['nosuch'], /^openwop-eval-conformance: unknown command 'nosuch' \(see --help\)$/],
    ['no command', [], /^openwop-eval-conformance: a command is required: run, verify, grade or host \(see --help\)$/],
    ['an unknown flag', ['run', '--offline', '--no-such-flag'], /^openwop-eval-conformance: unknown option '--no-such-flag' \(see --help\)$/],
    ['a missing argument', ['verify'], /missing required argument 'bundle' \(see --help\)$/],
    ['a bad flag value', ['run', '--max-events', '0'], /--max-events.* \(see --help\)$/],
    // Ignored, each would certify the full reference host where the user asked for another.
    [
      'a --reference-host-config that is no object',
      ['run', '--reference-host-config', 'false'],
      /--reference-host-config must be a JSON object .*, got false \(see --help\)$/,
    ],
    [
      'a misspelt --reference-host-config option',
      ['run', '--reference-host-config', '{"evalsuite":false}'],
      /--reference-host-config: "evalsuite" is not an option JSON can set \(port, .*evalSuite, .*\) \(see --help\)$/,
    ],
    [
      'a --reference-host-config option JSON cannot set',
      ['run', '--reference-host-config', '{"log":1}'],
      /--reference-host-config: "log" is not an option JSON can set/,
    ],
    // A value the host cannot start with is the user's to change, not a harness failure.
    [
      'a --reference-host-config value out of range',
      ['run', '--reference-host-config', '{"port":-5}'],
      /--reference-host-config: "port" must be an integer from 0 to 65535, got -5 \(see --help\)$/,
    ],
    [
      '--certify under --offline',
      ['run', '--offline', '--certify', join(dir, 'off.json')],
      /: --certify needs a host, and --offline runs only the server-free legs \(see --help\)$/,
    ],
    [
      '--archive under --offline',
      ['run', '--offline', '--archive', join(dir, 'off.har')],
      /: --archive needs a host, and --offline runs only the server-free legs \(see --help\)$/,
    ],
    // Every flag only a host run reads is refused so, not only those two: --offline with a
    // --base-url ran the server-free legs green and never asked the host.
    ...([['--base-url', 'http://127.0.0.1:9'], ['--require-behavior'], ['--seed', 'explore'], ['--run-deadline', '1000']] as const).map(
      (flag) =>
        [
          `${flag[0]} under --offline`,
          ['run', '--offline', ...flag],
          new RegExp(`: ${flag[0]} needs a host, and --offline runs only the server-free legs \\(see --help\\)$`),
        ] as [string, string[], RegExp],
    ),
  ];
  for (const [what, argv, message] of cases) {
    it(`(${what}) is one line naming it and where help is, never the whole help, and exit 2`, async () => {
      const { code, out, err } = await cli(...argv);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err.trimEnd()).toMatch(message);
      expectOneLine(err);
    });
  }
});

describe('a message that quotes what a file or a flag holds', () => {
  // JSON.parse's error quotes the text it could not read, line breaks and all.
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{\n  "expectedFailures": [\n    oops\n  ]\n}\n');
  const cases: Array<[string, string[], number, RegExp]> = [
    ['a usage error', ['run', '--offline', '--expected-failures', broken], 2, /--expected-failures .*broken\.json: not JSON \(.*\\n.*\) \(see --help\)$/],
    ['a flag value', ['run', '--host-build', 'commit:a\nb'], 2, /--host-build must be .*, got "commit:a\\nb" \(see --help\)$/],
    ['a file that cannot start the command', ['grade', '--suite', broken, '--events', broken], 2, /broken\.json: the suite is not JSON \(.*\\n.*\)$/],
    ['not a bundle', ['verify', broken], 3, /^openwop-eval-conformance: not a bundle: .*broken\.json is not JSON: .*\\n/],
    ['not a bundle, to a replay', ['verify', broken, '--replay', broken], 3, /^openwop-eval-conformance: not a bundle: .*broken\.json is not JSON: .*\\n/],
  ];
  for (const [what, argv, exit, message] of cases) {
    it(`stays one line, its line breaks written \\n (${what})`, async () => {
      const { code, out, err } = await cli(...argv);
      expect(code).toBe(exit);
      expect(out).toBe('');
      expect(err.trimEnd()).toMatch(message);
      expectOneLine(err);
    });
  }
});

describe('--certify that could not sign', () => {
  const signing = ['--signing-key', join(dir, 'host.pem'), '--signing-key-id', 'edge-key'];
  const cases: Array<[string, string[], RegExp]> = [
    ['no --signing-key for a host at --base-url', [], /--certify against a host needs --signing-key and --signing-key-id/],
    ['no --host-build for a host at --base-url', signing, /--certify against a host needs --host-build \(or OPENWOP_HOST_BUILD\)/],
    [
      '--signing-key without --signing-key-id',
      ['--signing-key', join(dir, 'host.pem'), '--host-build', 'commit:abc'],
      /--signing-key-id is required with --signing-key/,
    ],
    [
      'a --signing-key file that is missing',
      ['--signing-key', join(dir, 'nope.pem'), '--signing-key-id', 'k', '--host-build', 'commit:abc'],
      /--signing-key: cannot read the signing key file .*nope\.pem/,
    ],
    [
      'a --signing-key file that is not a key',
      ['--signing-key', join(dir, 'not-a-key.pem'), '--signing-key-id', 'k', '--host-build', 'commit:abc'],
      /--signing-key: .*not-a-key\.pem: /,
    ],
  ];
  for (const [what, flags, message] of cases) {
    it(`(${what}) exits 2 in one line before any request reaches the host`, async () => {
      const host = await serve(notFound);
      const bundle = join(dir, `never-${flags.length}.bundle.json`);
      const { code, out, err } = await cli('run', '--base-url', host.url, '--api-key', 'edge-key-a', '--certify', bundle, ...flags);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toMatch(message);
      expectOneLine(err);
      expect(host.requests()).toBe(0);
      expect(existsSync(bundle)).toBe(false);
    });
  }

  it('with every flag it needs, goes on to the host (here one without discovery: exit 2 from discovery)', async () => {
    const host = await serve(notFound);
    const { code, err } = await cli(
      'run',
      '--base-url',
      host.url,
      '--api-key',
      'edge-key-a',
      '--certify',
      join(dir, 'b.json'),
      ...signing,
      '--host-build',
      'commit:abc',
    );
    expect(code).toBe(2);
    expect(err).toMatch(/cannot certify .*: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openwop answered 404 not_found/);
    expect(host.requests()).toBeGreaterThan(0);
  });

  it('against the embedded host, a development key folder that cannot hold the key stops the run in one line, exit 2', async () => {
    for (const [keyDir, problem] of [
      [join(dir, 'a-file'), /ENOTDIR/],
      [join(dir, 'bad-key-folder'), /dev-signing-key\.pem/],
    ] as const) {
      mkdirSync(join(dir, 'bad-key-folder'), { recursive: true });
      writeFileSync(join(dir, 'bad-key-folder', 'dev-signing-key.pem'), 'not a key\n');
      vi.stubEnv('OPENWOP_DEV_KEY_DIR', keyDir);
      try {
        const { code, err } = await cli('run', '--certify', join(dir, 'k.json'));
        expect(code, keyDir).toBe(2);
        expect(err).toMatch(
          new RegExp(`^openwop-eval-conformance: cannot keep the development signing key in ${keyDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
        );
        expect(err).toMatch(problem);
        expect(err).not.toMatch(/harness failed|started the embedded reference host/);
        expectOneLine(err);
      } finally {
        vi.unstubAllEnvs();
      }
    }
  });

  it('against the embedded host, a missing --signing-key file stops the run before the host starts', async () => {
    const { code, err } = await cli('run', '--certify', join(dir, 'e.json'), '--signing-key', join(dir, 'nope.pem'), '--signing-key-id', 'k');
    expect(code).toBe(2);
    expect(err).not.toMatch(/started the embedded reference host/);
    expectOneLine(err);
  });
});

describe('a filter that keeps no leg', () => {
  it('is one line and exit 2, before the embedded host starts', async () => {
    const { code, out, err } = await cli('run', '--filter', 'matches-no-requirement-id');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trimEnd()).toMatch(
      /^openwop-eval-conformance: --filter "matches-no-requirement-id": .*: 0 of \d+ requirement ids kept: no requirement id was selected$/,
    );
    expectOneLine(err);
  });

  it('under --offline, counts only the server-free legs', async () => {
    const { code, out, err } = await cli('run', '--offline', '--filter', '^openwop\\.requirement\\.0244\\.served-shape$');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trimEnd()).toMatch(/: 0 of \d+ requirement ids kept of the server-free legs --offline runs: no requirement id was selected$/);
    expectOneLine(err);
  });
});

describe('a refused API key', () => {
  it('is one line and exit 2, not a row per leg, and never prints the key', async () => {
    const host = await refusingHost((req) => req.headers.authorization !== undefined);
    const { code, out, err } = await cli('run', '--base-url', host.url, '--api-key', 'ow2k_CANARY_refused_key', '--filter', '0081.');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trimEnd()).toMatch(
      /^openwop-eval-conformance: cannot certify .*: the host refused tenant A's API key \(--api-key, OPENWOP_API_KEY\): GET \/runs\/\{runId\} answered 401 unauthenticated before any leg ran$/,
    );
    expectOneLine(err);
    expect(err).not.toContain('CANARY');
  });

  it("names tenant B's key when that is the one refused", async () => {
    const host = await startReferenceHost({ log: () => {} });
    cleanups.push(() => host.close());
    const { code, err } = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.tenants.a.apiKey,
      '--tenant-b-api-key',
      'ow2k_CANARY_wrong_b',
      '--filter',
      '0081.',
    );
    expect(code).toBe(2);
    expect(err).toMatch(/the host refused tenant B's API key \(--tenant-b-api-key, OPENWOP_TEST_TENANT_B_API_KEY\)/);
    expect(err).not.toContain('CANARY');
  });

  it('refused only by some requests is graded by the legs: the row fails, exit 1', async () => {
    const host = await refusingHost((req) => /\/eval-summary(\?|$)/.test(req.url ?? ''));
    const { code, out } = await cli('run', '--base-url', host.url, '--api-key', host.apiKey, '--filter', '0081.summary-served');
    expect(code).toBe(1);
    expect(out).toMatch(/^executed-fail openwop\.requirement\.0081\.summary-served: .*eval-summary.*"status":401/m);
  });

  it('on discovery (which needs no key) is one line and exit 2', async () => {
    const host = await refusingHost((req) => req.url === '/.well-known/openwop');
    const { code, err } = await cli('run', '--base-url', host.url, '--api-key', host.apiKey);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot certify .*: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/openwop answered 401 unauthenticated$/m);
    expectOneLine(err);
  });
});

describe('progress', () => {
  async function run(tty: boolean, ...flags: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['run', '--filter', '0081.summary-served', ...flags], { out: (s) => (out += s), err: (s) => (err += s), tty });
    return { code, out, err };
  }
  const row = /^executed-pass +openwop\.requirement\.0081\.summary-served \(\d+ assertions\)$/gm;

  it('on a terminal is one line on standard error, redrawn and cleared; each row is printed once', async () => {
    const { code, out, err } = await run(true);
    expect(code).toBe(0);
    expect(err).toContain('\r\x1b[2K[1/1] executed-pass openwop.requirement.0081.summary-served\r\x1b[2K');
    expect(err).not.toMatch(/\[\d+\/\d+\][^\r]*\n/);
    expect(out.match(row)).toHaveLength(1);
  });

  it('on a pipe prints no progress lines; each row is printed once', async () => {
    const { code, out, err } = await run(false);
    expect(code).toBe(0);
    expect(err).not.toMatch(/\[\d+\/\d+\]|\r/);
    expect(out.match(row)).toHaveLength(1);
  });

  it('with --progress lines prints a line per finished leg, even on a pipe', async () => {
    const { code, out, err } = await run(false, '--progress', 'lines');
    expect(code).toBe(0);
    expect(err).toMatch(/^\[1\/1\] executed-pass openwop\.requirement\.0081\.summary-served$/m);
    expect(out.match(row)).toHaveLength(1);
  });

  it('with --progress none prints none, even on a terminal', async () => {
    const { code, err } = await run(true, '--progress', 'none');
    expect(code).toBe(0);
    expect(err).not.toMatch(/\[\d+\/\d+\]|\r/);
  });

  it('refuses a --progress mode it does not know in one line, exit 2', async () => {
    const { code, err } = await cli('run', '--offline', '--progress', 'bar');
    expect(code).toBe(2);
    expect(err).toMatch(/argument 'bar' is invalid\. Allowed choices are auto, lines, none\. \(see --help\)$/m);
    expectOneLine(err);
  });
});

describe('the exit codes of run (README "Exit codes")', () => {
  it('0: every executed row passed and none is blocked', async () => {
    const { code, out } = await cli('run', '--offline', '--filter', '0244.wire-shape');
    expect(code).toBe(0);
    expect(out).toMatch(/^totals: 1 executed-pass, 0 executed-fail/m);
  });

  it('1: a row failed', async () => {
    const host = await refusingHost((req) => /\/eval-summary(\?|$)/.test(req.url ?? ''));
    const { code, out } = await cli('run', '--base-url', host.url, '--api-key', host.apiKey, '--filter', '0081.summary-served');
    expect(code).toBe(1);
    expect(out).toMatch(/^totals: 0 executed-pass, 1 executed-fail/m);
  });

  it('1: a row is blocked', async () => {
    const { code, out } = await cli('run', '--filter', '0081.summary-served', '--run-deadline', '1');
    expect(code).toBe(1);
    expect(out).toMatch(/^blocked +openwop\.requirement\.0081\.summary-served: interrupted/m);
  });

  it('2: bad flags', async () => {
    expect((await cli('run', '--request-timeout', 'soon')).code).toBe(2);
  });

  it('2: discovery unreachable', async () => {
    expect((await cli('run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k')).code).toBe(2);
  });

  it('2: no requirement id selected', async () => {
    const { code, err } = await cli('run', '--offline', '--filter', 'no-such-requirement');
    expect(code).toBe(2);
    expect(err).toMatch(/no requirement id was selected/);
  });

  it('2: the harness itself failed', async () => {
    const { code, err } = await cliWith(async () => {
      throw new TypeError('a bug of the harness');
    }, 'run');
    expect(code).toBe(2);
    expect(err).toMatch(/the harness failed \(a harness bug, not the host's fault\): TypeError: a bug of the harness$/m);
  });

  it("2: the embedded host's port is in use, the user's to change and no harness failure", async () => {
    const port = await busyPort();
    const { code, err } = await cli('run', '--reference-host-config', JSON.stringify({ port }));
    expect(code).toBe(2);
    expect(err).toBe(
      `openwop-eval-conformance: the embedded reference host cannot listen on port ${port} of 127.0.0.1: the port is in use (EADDRINUSE); give another in --reference-host-config, or {"port":0} for any free one\n`,
    );
  });

  it('are every one listed by run --help', async () => {
    const readme = readFileSync(packagePath('README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Exit codes'));
    const documented = [...table.slice(0, table.indexOf('\n\n', table.indexOf('| code |'))).matchAll(/^\| ([\d, ]+) \|/gm)].flatMap((m) => m[1]!.split(', '));
    expect(documented).toEqual(['0', '1', '2', '4', '130', '143']);
    const { out } = await cli('run', '--help');
    const listed = out.slice(out.indexOf('\nExit codes:\n'));
    for (const code of documented) expect(listed, `run --help lists exit code ${code}`).toMatch(new RegExp(`(^|[ ;])${code}[ ,]`, 'm'));
  });
});

/** The text from the line `heading` to the next heading of its level or above ('' when absent). */
function section(text: string, heading: string): string {
  const start = text.search(new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  if (start < 0) return '';
  const level = heading.indexOf(' ');
  const next = text.slice(start + heading.length).search(new RegExp(`\\n#{1,${level}} `));
  return next < 0 ? text.slice(start) : text.slice(start, start + heading.length + next);
}

describe('docs/cli.md', () => {
  const flagsDoc = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');

  for (const command of ['run', 'verify', 'grade', 'host']) {
    it(`names every flag of ${command} that --help lists, in its table under "${command}"`, async () => {
      const { out } = await cli(command, '--help');
      const flags = [...new Set([...out.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]!))].filter((flag) => flag !== '--help');
      expect(flags.length).toBeGreaterThan(0);
      const table = section(flagsDoc, `## \`${command}\``);
      expect(table).not.toBe('');
      for (const flag of flags) expect(table, `${flag} of ${command}`).toMatch(new RegExp(`^\\| \`${flag}[ \`]`, 'm'));
    });
  }
});
