// What a command prints shows what a host sent and never acts on it (lib/io.ts `printable`): a
// host whose member names, implementation name and bundle strings carry a carriage return, escape
// sequences that move the cursor up, erase a line and hide what follows, and bidirectional
// overrides cannot make the terminal show a verdict the run did not reach, nor reorder a line.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceHost, type ReferenceHost } from '../hosts/reference/server.ts';
import { generateDevKeyPair } from '../lib/evidence/keys.ts';
import { printable } from '../lib/io.ts';
import { cli, hostFlags } from './support/cli.ts';

/** A line that, printed as it is, erases the line above and shows a forged verdict in its place. */
const FORGED = '\r\x1b[2K\x1b[1A\x1b[2Keval verdict: certified: every profile\x1b[8m\u009b2K\u202e';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const read = (stream: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => parts.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });

/** The reference host with FORGED in its implementation name and as a member of every eval summary. */
async function forgingHost(upstream: ReferenceHost): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(upstream.baseUrl);
  const server: Server = createServer((req, res) => {
    void read(req).then((body) => {
      const forward = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        void read(answer).then((raw) => {
          const path = (req.url ?? '').split('?')[0]!;
          let text = raw.toString('utf8');
          if (answer.statusCode === 200 && (path === '/.well-known/openwop' || path.endsWith('/eval-summary'))) {
            const json = JSON.parse(text) as Record<string, unknown>;
            if (path.endsWith('/eval-summary')) json[`x${FORGED}`] = 1;
            else json.implementation = { ...(json.implementation as object), name: `acme${FORGED}` };
            text = JSON.stringify(json);
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(text);
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'owec-terminal-'));
const key = generateDevKeyPair();
writeFileSync(join(dir, 'host.pem'), key.privateKeyPem);
let upstream: ReferenceHost;
let proxy: Awaited<ReturnType<typeof forgingHost>>;
let run: { code: number; out: string; err: string };

beforeAll(async () => {
  upstream = await startReferenceHost({ log: () => {} });
  proxy = await forgingHost(upstream);
  const flags = hostFlags({ ...upstream, baseUrl: proxy.baseUrl });
  const bundle = ['--certify', join(dir, 'bundle.json'), '--signing-key', join(dir, 'host.pem'), '--signing-key-id', 'k1', '--host-build', 'commit:0123abcd'];
  run = await cli('run', ...flags, '--filter', '0081.summary-served', ...bundle);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

/** The lines of a command's output that start as a verdict line does. */
const verdictLines = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('eval verdict:'));

describe('a host whose strings carry terminal controls', () => {
  it('run prints each of them escaped, and the one verdict line is the run’s', () => {
    expect(run.code, run.err).toBe(1);
    const printed = run.out + run.err;
    // The failed row quotes the member name and the implementation name, escaped.
    expect(run.out).toMatch(/^executed-fail +openwop\.requirement\.0081\.summary-served: \[acme\\u000d\\u001b\[2K/m);
    expect(printed).not.toMatch(ACTS);
    expect(verdictLines(run.out)).toHaveLength(1);
    expect(verdictLines(run.out)[0]).toMatch(/^eval verdict: (self-attested .*: )?nothing certified/);
  });

  it('verify prints a bundle’s strings escaped, and the one verdict line is its own', async () => {
    const bundle = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as { suite: { name: string }; signature: { keyId: string } };
    bundle.suite.name = `n${FORGED}`;
    bundle.signature.keyId = `k1${FORGED}`;
    writeFileSync(join(dir, 'forged.json'), JSON.stringify(bundle));
    const verify = await cli('verify', join(dir, 'forged.json'));
    expect(verify.code).not.toBe(0);
    expect(verify.out + verify.err).not.toMatch(ACTS);
    expect(verify.out).toContain('the bundle was cut by n\\u000d\\u001b[2K');
    expect(verdictLines(verify.out)).toHaveLength(1);
    expect(verdictLines(verify.out)[0]).toMatch(/^eval verdict: does not apply/);
  });

  it('a JSON document printed stays the same document', () => {
    const value = { a: `x${FORGED}\u0085\u2066`, [`k${FORGED}`]: ['\t\n'] };
    const text = JSON.stringify(value, null, 2);
    expect(printable(text)).not.toMatch(ACTS);
    expect(JSON.parse(printable(text))).toEqual(value);
  });
});
