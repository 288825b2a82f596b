// Memory caps a vendor can set (docs/certifying.md "Memory caps"), read like the deadlines
// (lib/ledger/deadlines.ts): a flag wins over its environment variable, and a value that is not
// a positive integer is a usage problem. The caps bound what the harness holds, whatever the host
// sends: the events of one run, and the bytes of one response (one run's event log counts as
// one); and over all the runs read at once, the events and bytes held (lib/client/budget.ts).
// Reaching any makes the row `blocked`, naming the cap (lib/client/transport-errors.ts
// HarnessCapReached), never the host's `executed-fail`. OPENWOP_TIMEOUT_SCALE does not touch them.

import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_BYTES_IN_FLIGHT, DEFAULT_MAX_EVENTS, DEFAULT_MAX_EVENTS_IN_FLIGHT } from '../client/index.ts';

export interface Caps {
  maxEvents: number;
  maxResponseBytes: number;
  maxEventsInFlight: number;
  maxBytesInFlight: number;
}

export type CapFlags = { maxEvents?: string; maxResponseBytes?: string; maxEventsInFlight?: string; maxBytesInFlight?: string };

export const DEFAULT_CAPS: Caps = {
  maxEvents: DEFAULT_MAX_EVENTS,
  maxResponseBytes: DEFAULT_MAX_BODY_BYTES,
  maxEventsInFlight: DEFAULT_MAX_EVENTS_IN_FLIGHT,
  maxBytesInFlight: DEFAULT_MAX_BYTES_IN_FLIGHT,
};

export function readCaps(flags: CapFlags, env: NodeJS.ProcessEnv): { ok: true; caps: Caps } | { ok: false; problem: string } {
  const read = (flag: string, value: string | undefined, envName: string, fallback: number): number | string => {
    const text = value ?? env[envName];
    if (text === undefined || text === '') return fallback;
    const n = Number(text);
    if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n <= 0) return `${flag} (or ${envName}) must be a positive integer, got "${text}"`;
    return n;
  };
  const maxEvents = read('--max-events', flags.maxEvents, 'OPENWOP_MAX_EVENTS', DEFAULT_CAPS.maxEvents);
  const maxResponseBytes = read('--max-response-bytes', flags.maxResponseBytes, 'OPENWOP_MAX_RESPONSE_BYTES', DEFAULT_CAPS.maxResponseBytes);
  const maxEventsInFlight = read('--max-events-in-flight', flags.maxEventsInFlight, 'OPENWOP_MAX_EVENTS_IN_FLIGHT', DEFAULT_CAPS.maxEventsInFlight);
  const maxBytesInFlight = read('--max-bytes-in-flight', flags.maxBytesInFlight, 'OPENWOP_MAX_BYTES_IN_FLIGHT', DEFAULT_CAPS.maxBytesInFlight);
  for (const value of [maxEvents, maxResponseBytes, maxEventsInFlight, maxBytesInFlight]) if (typeof value === 'string') return { ok: false, problem: value };
  return {
    ok: true,
    caps: {
      maxEvents: maxEvents as number,
      maxResponseBytes: maxResponseBytes as number,
      maxEventsInFlight: maxEventsInFlight as number,
      maxBytesInFlight: maxBytesInFlight as number,
    },
  };
}
