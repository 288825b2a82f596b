// verify --replay of a hand-written archive: discovery answered 429 with Retry-After: 3000 (50 min),
// then 503; the archive's request timeout an hour. No request is asked more often than archived:
// the harness itself sleeps what the archived Retry-After asks, within the recorded timeout. 30 s bound.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../commands/cli.ts';
import { DEFAULT_USER_AGENT } from '../lib/client/early-discovery.ts';

const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'a10-repeat-'));
const entry = {
  startedDateTime: '2026-12-01T00:00:00.000Z',
  time: Number(process.argv[2] ?? HOUR),
  request: {
    method: 'GET',
    url: 'http://127.0.0.1:1/.well-known/openwop',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [
      { name: 'accept', value: 'application/json' },
      { name: 'accept-encoding', value: 'identity' },
      { name: 'openwop-version', value: '2.0' },
      { name: 'user-agent', value: DEFAULT_USER_AGENT },
    ],
    queryString: [],
    headersSize: -1,
    bodySize: 0,
  },
  response: {
    status: 429,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [{ name: 'content-type', value: 'application/json' }, { name: 'retry-after', value: '3000' }],
    content: { size: 2, mimeType: 'application/json', text: '{"error":{"code":"rate_limited","message":"slow down"}}' },
    redirectURL: '',
    headersSize: -1,
    bodySize: 2,
  },
  cache: {},
  timings: { send: 0, wait: 1, receive: 0 },
};
const har = {
  log: {
    version: '1.2',
    creator: { name: 'openwop-eval-conformance', version: '0' },
    entries: [entry, { ...entry, response: { ...entry.response, status: 200, headers: [{ name: "content-type", value: "application/json" }], content: { size: 2, mimeType: "application/json", text: "{}" } } }],
    _certification: { seed: '0123456789abcdef0123456789abcdef', requireBehavior: false, concurrency: 4, tenantB: true, checkKeys: true, requestTimeoutMs: HOUR },
  },
};
const path = join(dir, 'a.har');
writeFileSync(path, JSON.stringify(har));
writeFileSync(`${path}.sig.json`, '{}');
writeFileSync(join(dir, 'b.json'), '{"bundleVersion": 3}');
const started = Date.now();
const code = await main(['verify', join(dir, 'b.json'), '--replay', path], { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
console.log(`exit ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
