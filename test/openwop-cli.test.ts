// The habits of a vendor coming from the OpenWOP conformance CLI (docs/openwop-cli.md): each one
// works here, or is refused in one line that names this harness's equivalent; and the messages
// a first run meets — a public key as --signing-key, a discovery 404, a missing tenant-B key —
// say what happened. Every upstream flag the mapping table names is checked to be handled.

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, hostFlags } from './support/cli.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { EXAMPLES_HELP } from '../commands/cli.ts';
import { packagePath } from '../lib/package-root.ts';

const dir = mkdtempSync(join(tmpdir(), 'owec-openwop-cli-'));
const pair = generateKeyPairSync('ed25519');
const privatePem = join(dir, 'host.pem');
const publicPem = join(dir, 'host.pub.pem');
writeFileSync(privatePem, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
writeFileSync(publicPem, pair.publicKey.export({ type: 'spki', format: 'pem' }));

let host: Awaited<ReturnType<typeof startReferenceHost>>;
let bundle: string;
beforeAll(async () => {
  host = await startReferenceHost({ log: () => {} });
  bundle = join(dir, 'steward.bundle.json');
  const { code, err } = await cli(
    'run',
    ...hostFlags(host),
    '--filter',
    'suite-shape|summary-served',
    '--certify',
    bundle,
    '--signing-key',
    privatePem,
    '--signing-key-id',
    'parity-key',
    '--host-build',
    'commit:abc123',
    '--evidence-tier',
    'steward',
  );
  // A filtered bundle is written and signed, and certifies nothing (exit 4); the run's own rows all
  // passed. The one line said is the warning that the host does not publish the key it was signed with.
  const said = err.split('\n').filter((line) => /openwop-eval-conformance: /.test(line));
  expect(said).toEqual([expect.stringMatching(/warning: the host's discovery signingKeys publish no key "parity-key"/)]);
  expect(code).toBe(4);
});
afterAll(async () => {
  await host?.close();
});

describe('--verify FILE', () => {
  it('runs the verify command, with the note that its exit codes are this harness’s', async () => {
    const alias = await cli('--verify', bundle, '--host-key', publicPem);
    const command = await cli('verify', bundle, '--host-key', publicPem);
    expect(alias.out).toBe(command.out);
    expect(alias.code).toBe(command.code);
    expect(alias.code).toBe(4);
    expect(alias.err).toMatch(/--verify FILE is the verify command here; .*5, not the OpenWOP CLI's 2/);
  });

  it('takes its file as --verify=FILE too, with --host-key before or after', async () => {
    const { out, code } = await cli('--host-key', publicPem, `--verify=${bundle}`);
    expect(code).toBe(4);
    expect(out).toMatch(/^authenticity: verified/m);
  });

  it('without a host key is "not independently verified": exit 5 here, where the OpenWOP CLI exits 2', async () => {
    // The bundle is incomplete (filtered), which is exit 4 before authenticity is asked; the
    // embedded host's own full bundle would be needed for 5, so the mapping is checked on the
    // code's meaning in the table instead.
    const table = readFileSync(packagePath('docs/openwop-cli.md'), 'utf8');
    expect(table).toMatch(/\| `--verify` `2` \| coherent but not independently verified \| `verify` `5`/);
  });

  it('after a command is refused, naming the verify command', async () => {
    const { code, err } = await cli('run', '--verify', bundle);
    expect(code).toBe(2);
    expect(err.trim()).toBe(
      'openwop-eval-conformance: --verify FILE is the verify command here: openwop-eval-conformance verify FILE --host-key PEM (see --help)',
    );
  });
});

describe('--evidence-tier', () => {
  it('steward with a published key: every claimed profile carries steward', () => {
    const written = JSON.parse(readFileSync(bundle, 'utf8')) as { claimedProfiles: Array<{ evidenceTier: string }> };
    expect(written.claimedProfiles.length).toBeGreaterThan(0);
    expect(new Set(written.claimedProfiles.map((p) => p.evidenceTier))).toEqual(new Set(['steward']));
  });

  const refusals: Array<[string, string[], RegExp]> = [
    [
      'independent',
      ['--certify', join(dir, 'x.json'), '--evidence-tier', 'independent'],
      /independent needs a verifier's signature .* cut the bundle at self or steward/,
    ],
    [
      'steward on the development key',
      ['--certify', join(dir, 'x.json'), '--evidence-tier', 'steward'],
      /steward needs --signing-key: the self-signed development key/,
    ],
    ['a tier without a bundle', ['--evidence-tier', 'self'], /--evidence-tier .* needs --certify/],
    ['a tier that is none', ['--certify', join(dir, 'x.json'), '--evidence-tier', 'gold'], /--evidence-tier must be self, steward or independent, got "gold"/],
  ];
  for (const [what, flags, message] of refusals) {
    it(`(${what}) is refused in one line before the host starts`, async () => {
      const { code, err } = await cli('run', ...flags);
      expect(code).toBe(2);
      expect(err).toMatch(message);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    });
  }
});

describe('--max-workers', () => {
  it('is --concurrency: a bad value is refused as --concurrency’s', async () => {
    const { code, err } = await cli('run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-workers', '0');
    expect(code).toBe(2);
    expect(err).toMatch(/--concurrency \(or OPENWOP_MAX_WORKERS\) must be an integer from 1 to 64, got "0"/);
  });

  it('and --concurrency with another value are refused together', async () => {
    const { code, err } = await cli('run', '--max-workers', '2', '--concurrency', '3');
    expect(code).toBe(2);
    expect(err).toMatch(/--max-workers is --concurrency by its OpenWOP name; give one of them/);
  });

  it('runs the legs it caps', async () => {
    const { code, out } = await cli('run', ...hostFlags(host), '--filter', 'suite-shape', '--max-workers', '1');
    expect(code).toBe(0);
    expect(out).toMatch(/^executed-pass +openwop\.requirement\.0081\.suite-shape/m);
  });
});

describe('--filter', () => {
  it('is read as a regular expression, and the run says so with what it kept', async () => {
    const { out, err } = await cli('run', '--offline', '--filter', '0244\\.(fixtures|wire)-');
    expect(err).toMatch(/--filter "0244\\\\.\(fixtures\|wire\)-": read as a regular expression, .*: 2 of \d+ requirement ids kept/);
    expect(out.match(/^executed-pass/gm)).toHaveLength(2);
  });

  it('that does not compile as a regular expression is matched as plain text, and the run says why', async () => {
    const { err } = await cli('run', '--offline', '--filter', 'fixtures-valid[');
    expect(err).toMatch(/--filter "fixtures-valid\[": not a regular expression \(.*\), so matched as plain text, .*: 0 of \d+ requirement ids kept/);
  });
});

describe('a flag of the OpenWOP CLI that this harness does not take', () => {
  const table = readFileSync(packagePath('docs/openwop-cli.md'), 'utf8');
  const refused = [
    '--impl',
    '--implementation-name',
    '--impl-version',
    '--implementation-version',
    '--target-major',
    '--bundle-version',
    '--verifier-key',
    '--verifier-key-id',
  ];
  for (const flag of refused) {
    it(`${flag} is refused in one line naming what to use here`, async () => {
      const { code, err } = await cli('run', '--offline', flag, 'x');
      expect(code).toBe(2);
      expect(err).toMatch(new RegExp(`^openwop-eval-conformance: ${flag} is a flag of the OpenWOP conformance CLI that this harness does not take: \\S`));
      expect(err.trimEnd().split('\n')).toHaveLength(1);
    });
  }

  it('every flag the mapping table names is one this harness takes, or refuses by name', async () => {
    // The OpenWOP CLI's flags: the first cell of each table row.
    const firstCells = table.split('\n').flatMap((line) => (line.startsWith('| ') ? [line.split(' | ')[0]!] : []));
    const named = [...new Set(firstCells.flatMap((cell) => [...cell.matchAll(/(--[a-z-]+)/g)].map((m) => m[1]!)))];
    expect(named.length).toBeGreaterThan(15);
    const { out } = await cli('run', '--help');
    const verifyHelp = (await cli('verify', '--help')).out;
    const unhandled = named.filter(
      (flag) => !refused.includes(flag) && !out.includes(`${flag} `) && !verifyHelp.includes(`${flag} `) && flag !== '--verify' && flag !== '--help',
    );
    expect(unhandled, 'each flag in docs/openwop-cli.md is either taken (run --help, verify --help) or refused by name').toEqual([]);
  });
});

describe('the messages of a first run', () => {
  it('a public key as --signing-key says it is a public key and where it belongs', async () => {
    const { code, err } = await cli(
      'run',
      ...hostFlags(host),
      '--certify',
      join(dir, 'p.json'),
      '--signing-key',
      publicPem,
      '--signing-key-id',
      'k',
      '--host-build',
      'commit:a',
    );
    expect(code).toBe(2);
    expect(err).toMatch(/--signing-key: .*host\.pub\.pem holds a public key; --signing-key takes the Ed25519 private key .* verify --host-key/);
    expect(err).not.toMatch(/DECODER/);
  });

  it('a discovery 404 names the URL it tried', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not_found","message":"nothing here"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
    try {
      const { code, err } = await cli('run', '--base-url', url, '--api-key', 'k-404');
      expect(code).toBe(2);
      expect(err).toContain(`GET ${url}/.well-known/openwop answered 404 not_found`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a missing tenant-B key is warned about before the first leg, naming the legs it blocks', async () => {
    const { err, out } = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.tenants.a.apiKey,
      '--filter',
      'summary-tenant-scoped|suite-shape',
      '--progress',
      'lines',
    );
    const warning =
      /^warning: no tenant-B key \(--tenant-b-api-key or OPENWOP_TEST_TENANT_B_API_KEY\), so 1 cross-tenant leg\(s\) will be blocked: openwop\.requirement\.0081\.summary-tenant-scoped$/m;
    expect(err).toMatch(warning);
    // Before the first leg's progress line.
    expect(err.search(warning)).toBeLessThan(err.search(/^\[1\/2\]/m));
    expect(out).toMatch(/^blocked +openwop\.requirement\.0081\.summary-tenant-scoped: no tenant-B key/m);
  });

  it('with both keys, there is no warning', async () => {
    const { err } = await cli('run', ...hostFlags(host), '--filter', 'tenant-scoped');
    expect(err).not.toMatch(/tenant-B/);
  });
});

describe('--help', () => {
  for (const command of ['run', 'verify', 'grade', 'host'] as const) {
    it(`of ${command} ends with its Examples, each a command of ${command}`, async () => {
      const { code, out } = await cli(command, '--help');
      expect(code).toBe(0);
      expect(out).toContain(EXAMPLES_HELP[command].trim());
      const examples = out
        .slice(out.indexOf('Examples:'))
        .split('\n')
        .filter((line) => line.trim().startsWith('$ '));
      expect(examples.length).toBeGreaterThan(1);
      for (const line of examples) expect(line).toMatch(new RegExp(`\\$ openwop-eval-conformance (${command}|--verify)\\b`));
    });
  }
});
