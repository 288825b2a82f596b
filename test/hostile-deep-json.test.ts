// Deep JSON (lib/json-depth.ts): a host, a bundle or an events file nested 100,000 levels deep is
// refused with a named error and one clear line — never "Maximum call stack size exceeded", never
// a crash, never the host's executed-fail.

import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './support/cli.ts';
import { createClient, readRunEvents, ResponseTooDeep } from '../lib/client/index.ts';
import { canonicalJson, findDuplicateMember } from '../lib/evidence/jcs.ts';
import { JsonTooDeep, jsonTextTooDeep, jsonValueTooDeep, MAX_JSON_DEPTH } from '../lib/json-depth.ts';
import { startReferenceHost } from '../hosts/reference/server.ts';
import { packagePath } from '../lib/package-root.ts';
import { patient } from './support/slowness.ts';

const DEEP = 100_000;
const deepText = (depth: number): string => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
const deepValue = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function expectNoCrash(text: string): void {
  expect(text).not.toMatch(/Maximum call stack|RangeError/);
  expect(text).not.toMatch(/^\s+at /m);
}

/** The reference host behind a proxy that adds a 100,000-deep member to the JSON answers `pick` selects. */
async function deepProxy(pick: (path: string) => boolean, deep = deepText(DEEP)): Promise<{ baseUrl: string; apiKey: string }> {
  const host = await startReferenceHost({ log: () => {} });
  cleanups.push(() => host.close());
  const upstream = new URL(host.baseUrl);
  const server: Server = createServer((req, res) => {
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => parts.push(chunk));
      answer.on('end', () => {
        let body = Buffer.concat(parts).toString('utf8');
        const json = (answer.headers['content-type'] ?? '').includes('application/json') && body.trimEnd().endsWith('}');
        if (json && pick((req.url ?? '').split('?')[0]!)) body = `${body.trimEnd().slice(0, -1)},"x-deep":${deep}}`;
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, apiKey: host.tenants.a.apiKey };
}

describe('the depth limit', () => {
  it('measures text and values without recursion, 100,000 levels deep', () => {
    expect(jsonTextTooDeep(deepText(DEEP))).toBe(true);
    expect(jsonValueTooDeep(deepValue(DEEP))).toBe(true);
    expect(jsonTextTooDeep(`["${'['.repeat(DEEP)}"]`)).toBe(false); // brackets inside a string
    expect(jsonValueTooDeep(deepValue(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonValueTooDeep(deepValue(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('canonical JSON refuses a 100,000-deep value with a named non-ijson error, and takes one at the limit', () => {
    let error: unknown;
    try {
      canonicalJson({ document: deepValue(DEEP) });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(new RegExp(`^non-ijson: \\$\\.document(\\[0\\]|\\.a)+: nested deeper than ${MAX_JSON_DEPTH} levels$`));
    expect(canonicalJson(deepValue(MAX_JSON_DEPTH - 1))).toMatch(/^\[/);
  });

  it('findDuplicateMember refuses 100,000-deep text with JsonTooDeep', () => {
    expect(() => findDuplicateMember(deepText(DEEP))).toThrow(JsonTooDeep);
  });
});

describe('a host whose discovery document nests 100,000 levels deep', () => {
  it('cannot be certified: exit 2 with one line naming the limit, no stack overflow', { timeout: 60_000 }, async () => {
    const host = await deepProxy((path) => path === '/.well-known/openwop');
    const dir = mkdtempSync(join(tmpdir(), 'owec-deep-'));
    const run = await cli('run', '--base-url', host.baseUrl, '--api-key', host.apiKey, '--report-json', join(dir, 'r.json'));
    expectNoCrash(run.out + run.err);
    expect(run.code).toBe(2);
    expect(run.err.trimEnd().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
  });
});

describe('a host whose discovery document is JSON but not I-JSON', () => {
  it('cannot be certified: exit 2 with one line naming the host’s document, not a harness bug', { timeout: 60_000 }, async () => {
    // RFC 7493 §2.1: no lone surrogate; RFC 8785 canonicalises I-JSON only.
    const host = await deepProxy((path) => path === '/.well-known/openwop', '"name \\ud800"');
    const run = await cli('run', '--base-url', host.baseUrl, '--api-key', host.apiKey);
    expect(run.code).toBe(2);
    expect(run.err).not.toContain('harness bug');
    expect(run.err).toMatch(
      /the discovery document is not I-JSON \(RFC 7493 §2\), so no certification can carry it: non-ijson: \$\["x-deep"\]: string holds a lone surrogate$/m,
    );
  });

  it('with a seed of the user’s and --certify: refused the same way before any leg, no bundle written', { timeout: 60_000 }, async () => {
    // The seed no longer needs the document digested, but the bundle still carries it in
    // canonical JSON (docs/wire.md §12.3); refused after the legs, the user waited for nothing.
    const host = await deepProxy((path) => path === '/.well-known/openwop', '"name \\ud800"');
    const dir = mkdtempSync(join(tmpdir(), 'owec-deep-'));
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'key.pem'), privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const bundle = join(dir, 'bundle.json');
    const run = await cli(
      'run',
      '--base-url',
      host.baseUrl,
      '--api-key',
      host.apiKey,
      '--seed',
      '0123456789abcdef',
      '--certify',
      bundle,
      '--signing-key',
      join(dir, 'key.pem'),
      '--signing-key-id',
      'vendor-1',
      '--host-build',
      `commit:${'0'.repeat(40)}`,
    );
    expect(run.code).toBe(2);
    expect(run.out).not.toMatch(/^(executed-pass|executed-fail|blocked)/m);
    expect(run.err).toMatch(
      /the discovery document is not I-JSON \(RFC 7493 §2\), so no certification can carry it: non-ijson: \$\["x-deep"\]: string holds a lone surrogate$/m,
    );
    expect(existsSync(bundle)).toBe(false);
  });
});

describe('a host whose run answers nest 100,000 levels deep', () => {
  it('gets those rows blocked with the reason, never executed-fail', { timeout: 60_000 }, async () => {
    const host = await deepProxy((path) => path.startsWith('/runs'));
    const run = await cli('run', '--base-url', host.baseUrl, '--api-key', host.apiKey, '--filter', '0244.trajectory-graded');
    expectNoCrash(run.out + run.err);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      new RegExp(`^blocked +openwop\\.requirement\\.0244\\.trajectory-graded: transport-loss: .*deeper than ${MAX_JSON_DEPTH} levels`, 'm'),
    );
    expect(run.out).not.toMatch(/^executed-fail/m);
  });
});

describe('an event stream whose frame nests 100,000 levels deep', () => {
  for (const transport of ['sse', 'poll'] as const) {
    it(`ends the read with ResponseTooDeep (${transport}), not a stack overflow and not the host's defect`, { timeout: 30_000 }, async () => {
      const deep = deepText(DEEP);
      const server: Server = createServer((req, res) => {
        if ((req.url ?? '').includes('/events/poll')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"runId":"tenant-a/x","events":[${deep}],"lastSequence":1,"status":"running","isTerminal":false}`);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`id: 1\nevent: message\ndata: ${deep}\n\n`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
      const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, apiKey: 'k-0123456789', timeoutMs: 5_000 });
      cleanups.push(() => client.close());
      const error = await readRunEvents(client, 'tenant-a/0123456789abcdefXYZ', { deadlineMs: 10_000, transport }).then(
        (result) => result,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ResponseTooDeep);
      expect((error as Error).message).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
    });
  }
});

describe('a body that is not JSON', () => {
  it('is an answer like any other, however many brackets it holds', { timeout: 30_000 }, async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('{['.repeat(DEEP));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, timeoutMs: 5_000 });
    cleanups.push(() => client.close());
    const result = await client.request('GET', '/anything');
    expect(result.status).toBe(200);
    expect(result.json).toBeUndefined();
  });
});

describe('files nested 100,000 levels deep', () => {
  it('verify calls such a bundle "not a bundle" (exit 3) and grade refuses such events (exit 2), in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'owec-deep-files-'));
    writeFileSync(join(dir, 'bundle.json'), `{"bundleVersion":"3","discovery":{"document":${deepText(DEEP)}}}`);
    const verify = await cli('verify', join(dir, 'bundle.json'));
    expectNoCrash(verify.out + verify.err);
    expect(verify.code).toBe(3);
    expect(verify.err).toMatch(/deeper than 512 levels/);

    writeFileSync(join(dir, 'events.ndjson'), `${deepText(DEEP)}\n`);
    const grade = await cli('grade', '--suite', 'fixtures/eval-suites/conformance-eval-trajectory.json', '--events', join(dir, 'events.ndjson'));
    expectNoCrash(grade.out + grade.err);
    expect(grade.code).toBe(2);
    expect(grade.err.trimEnd().split('\n')).toHaveLength(1);
    expect(grade.err).toMatch(/deeper than 512 levels/);
  });
});

describe('a file wide rather than deep', () => {
  // Four million empty objects in 12 MB: JSON.parse makes them about 270 MB of heap, and the depth
  // check held a frame per member beside them, as much again. Under a 400 MB heap the command
  // aborted with "JavaScript heap out of memory"; it now holds one frame per level.
  it('is checked for depth in the memory of the value alone: verify answers under a 400 MB heap', { timeout: 120_000 }, () => {
    const path = join(mkdtempSync(join(tmpdir(), 'owec-wide-')), 'wide.json');
    writeFileSync(
      path,
      `{"bundleVersion":"3","x":[${Array(4 * 2 ** 20)
        .fill('{}')
        .join(',')}]}`,
    );
    const run = spawnSync(process.execPath, ['--max-old-space-size=400', packagePath('bin/openwop-eval-conformance.mjs'), 'verify', path], {
      encoding: 'utf8',
      timeout: patient(90_000),
    });
    expect(run.stderr).not.toMatch(/heap out of memory/);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
  });
});
