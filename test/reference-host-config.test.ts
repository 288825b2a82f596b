// `run --reference-host-config JSON` (commands/support/reference-host.ts): a value the reference
// host cannot start with is refused as a usage error, one line and exit 2, before the host starts,
// not reported as a harness that failed.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readReferenceHostConfig } from '../commands/support/reference-host.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { cli } from './support/cli.ts';

const PREFIX = '--reference-host-config: ';

/** What readReferenceHostConfig says of `config`: 'ok', or its problem less the prefix. */
function said(config: unknown): string {
  const read = readReferenceHostConfig(JSON.stringify(config));
  if (read.ok) return 'ok';
  expect(read.problem.startsWith(PREFIX), read.problem).toBe(true);
  return read.problem.slice(PREFIX.length);
}

describe('readReferenceHostConfig', () => {
  it('refuses a value out of range, or of the wrong kind, naming the option and the value', () => {
    const cases: Array<[unknown, string]> = [
      [{ port: -5 }, '"port" must be an integer from 0 to 65535, got -5'],
      [{ port: 65536 }, '"port" must be an integer from 0 to 65535, got 65536'],
      [{ port: 80.5 }, '"port" must be an integer from 0 to 65535, got 80.5'],
      [{ port: '80' }, '"port" must be an integer from 0 to 65535, got a string'],
      [{ paceMs: -1 }, '"paceMs" must be a number of milliseconds from 0 to 2147483647, got -1'],
      [{ keepAliveMs: 0 }, '"keepAliveMs" must be a number of milliseconds from 1 to 2147483647, got 0'],
      [{ bodyTimeoutMs: 2 ** 31 }, '"bodyTimeoutMs" must be a number of milliseconds from 1 to 2147483647, got 2147483648'],
      [{ seams: 'yes' }, '"seams" must be true or false, got a string'],
      [{ replay: null }, '"replay" must be true or false, got null'],
      [{ dbPath: '' }, '"dbPath" must be a string that is not empty, got an empty string'],
      [{ validateTraffic: 'lax' }, '"validateTraffic" must be "strict" or "off", got a string'],
      [{ fixturesDir: '/no/such/folder' }, '"fixturesDir" names no folder: /no/such/folder'],
      [{ evalSuite: true }, '"evalSuite" must be false or a JSON object of members of the facet, got true'],
      [
        { implementation: { url: 'x' } },
        '"implementation" must be a JSON object of name, version, vendor, each a string that is not empty; "url" is none of them',
      ],
      [
        { tenants: { a: { apiKey: 5 } } },
        '"tenants" must be a JSON object of a and b, each a JSON object of tenantId and apiKey, strings that are not empty; a.apiKey is 5',
      ],
    ];
    for (const [config, problem] of cases) expect(said(config), JSON.stringify(config)).toBe(problem);
  });

  it("refuses what the host's own checks would refuse at its start, without echoing a key", () => {
    expect(said({ tenants: { a: { apiKey: 'short' } } })).toBe('"tenants": the API key of tenant tenant-a is shorter than 8 characters');
    expect(said({ tenants: { a: { tenantId: 'x y' } } })).toBe('"tenants": tenant id "x y" is not a v2 tenantId');
    expect(said({ tenants: { b: { apiKey: 'ow2k_tenant_a_dev_key' } } })).toBe('"tenants": the two tenants must have different API keys');
    const { publicKeyPem } = generateDevKeyPair();
    const signing = said({ signingKey: publicKeyPem });
    expect(signing).toMatch(/^"signingKey" must be an Ed25519 private key in PEM \(.*\)$/);
    expect(signing).not.toContain(publicKeyPem.split('\n')[1]);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(said({ publishedKey: other.publicKey.export({ type: 'spki', format: 'pem' }) })).toBe('"publishedKey" must be an Ed25519 public key');
    expect(said({ signingKey: other.privateKey.export({ type: 'pkcs8', format: 'pem' }) })).toBe('"signingKey" must be an Ed25519 private key');
    expect(said({ evalSuite: { maxTasksPerSuite: 0 } })).toBe(
      'the host would advertise a discovery document that fails its schema: /agents/evalSuite/maxTasksPerSuite must be >= 1',
    );
    expect(said({ signingKeyId: 'a key id' })).toMatch(/^the host would advertise a discovery document that fails its schema: \/signingKeys\/0\/keyId /);
  });

  it('takes what the host starts with, and under validateTraffic off a discovery document it sends unchecked', () => {
    const { publicKeyPem, privateKeyPem } = generateDevKeyPair();
    for (const config of [
      {},
      { port: 0 },
      { port: 65535 },
      { paceMs: 50 },
      { evalSuite: false },
      { evalSuite: { trials: false, modes: ['golden'] } },
      { seams: false, replay: false },
      { tenants: { a: { apiKey: 'ow2k_custom_key_a' }, b: { tenantId: 'tenant-z', apiKey: 'ow2k_custom_key_b' } } },
      { signingKey: privateKeyPem, signingKeyId: 'vendor-key-1' },
      { publishedKey: publicKeyPem },
      { implementation: { vendor: 'someone' } },
      { validateTraffic: 'off', evalSuite: { maxTasksPerSuite: 0 } },
    ])
      expect(said(config), JSON.stringify(config)).toBe('ok');
  });
});

describe('run --reference-host-config with a value the host cannot start with', () => {
  it('is a usage error: one line, exit 2, before the host starts', async () => {
    for (const config of ['{"port":-5}', '{"keepAliveMs":0}', '{"evalSuite":{"maxTasksPerSuite":0}}']) {
      const { code, out, err } = await cli('run', '--reference-host-config', config);
      expect(err).toMatch(/^openwop-eval-conformance: --reference-host-config: .* \(see --help\)\n$/);
      expect(err).not.toMatch(/harness failed|started the embedded reference host/);
      expect(out).toBe('');
      expect(code).toBe(2);
    }
  });
});
