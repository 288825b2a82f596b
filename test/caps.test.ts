// Memory caps a vendor can set (commands/support/run-settings.ts, docs/certifying.md "Memory caps"): a flag wins over its
// environment variable, the defaults are the client's, anything but a positive integer is a
// usage problem, and the client carries the caps to the event reader.

import { describe, expect, it } from 'vitest';
import {
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_BYTES_IN_FLIGHT,
  DEFAULT_MAX_EVENTS,
  DEFAULT_MAX_EVENTS_IN_FLIGHT,
  ReadBudget,
} from '../lib/client/index.ts';
import { main } from '../commands/cli.ts';
import { readCaps } from '../commands/support/run-settings.ts';

describe('readCaps', () => {
  it('defaults to the client defaults', () => {
    expect(readCaps({}, {})).toEqual({
      ok: true,
      caps: {
        maxEvents: DEFAULT_MAX_EVENTS,
        maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
        maxEventsInFlight: DEFAULT_MAX_EVENTS_IN_FLIGHT,
        maxBytesInFlight: DEFAULT_MAX_BYTES_IN_FLIGHT,
      },
    });
  });

  it('reads the environment, and a flag wins over it', () => {
    const env = { OPENWOP_MAX_EVENTS: '50', OPENWOP_MAX_RESPONSE_BYTES: '4096', OPENWOP_MAX_EVENTS_IN_FLIGHT: '300', OPENWOP_MAX_BYTES_IN_FLIGHT: '8192' };
    expect(readCaps({}, env)).toEqual({ ok: true, caps: { maxEvents: 50, maxResponseBytes: 4096, maxEventsInFlight: 300, maxBytesInFlight: 8192 } });
    expect(readCaps({ maxEvents: '7', maxResponseBytes: '1024', maxEventsInFlight: '9', maxBytesInFlight: '10' }, env)).toEqual({
      ok: true,
      caps: { maxEvents: 7, maxResponseBytes: 1024, maxEventsInFlight: 9, maxBytesInFlight: 10 },
    });
  });

  it('refuses anything but a positive integer, naming the flag and the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'lots', '1e3', '99999999999999999999']) {
      const read = readCaps({ maxEvents: bad }, {});
      expect(read.ok).toBe(false);
      expect(!read.ok && read.problem).toContain('--max-events (or OPENWOP_MAX_EVENTS)');
    }
    const read = readCaps({}, { OPENWOP_MAX_RESPONSE_BYTES: 'x' });
    expect(!read.ok && read.problem).toContain('--max-response-bytes (or OPENWOP_MAX_RESPONSE_BYTES)');
    const inFlight = readCaps({ maxEventsInFlight: '0' }, {});
    expect(!inFlight.ok && inFlight.problem).toContain('--max-events-in-flight (or OPENWOP_MAX_EVENTS_IN_FLIGHT)');
  });

  it('is carried by the client to the readers built on it', () => {
    expect(createClient({ baseUrl: 'http://127.0.0.1:9', maxEvents: 3, maxResponseBytes: 99 }).limits).toEqual({ maxEvents: 3, maxResponseBytes: 99 });
    expect(createClient({ baseUrl: 'http://127.0.0.1:9' }).limits).toEqual({ maxEvents: DEFAULT_MAX_EVENTS, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES });
    const budget = new ReadBudget(5, 6);
    expect(createClient({ baseUrl: 'http://127.0.0.1:9', progressTimeoutMs: 700, budget }).limits).toMatchObject({ progressTimeoutMs: 700, budget });
  });

  it('a bad cap stops run before it reaches the host: exit 2, one line naming the flag', async () => {
    let err = '';
    const code = await main(['run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', '--max-response-bytes', 'lots'], {
      out: () => {},
      err: (s) => (err += s),
    });
    expect(code).toBe(2);
    expect(err).toContain('--max-response-bytes (or OPENWOP_MAX_RESPONSE_BYTES) must be a positive integer');
  });
});
