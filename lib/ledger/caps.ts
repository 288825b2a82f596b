// Memory caps a vendor can set (README "Memory caps"), read like the deadlines
// (lib/ledger/deadlines.ts): a flag wins over its environment variable, and a value that is not
// a positive integer is a usage problem. The caps bound what the harness holds, whatever the host
// sends: the events of one run, and the bytes of one response (one run's event log counts as
// one). Reaching either makes the row `blocked`, naming the cap (lib/client/transport-errors.ts
// HarnessCapReached), never the host's `executed-fail`. OPENWOP_TIMEOUT_SCALE does not touch them.

import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_EVENTS } from '../client/index.ts';

export interface Caps {
  maxEvents: number;
  maxResponseBytes: number;
}

export type CapFlags = { maxEvents?: string; maxResponseBytes?: string };

export const DEFAULT_CAPS: Caps = { maxEvents: DEFAULT_MAX_EVENTS, maxResponseBytes: DEFAULT_MAX_BODY_BYTES };

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
  if (typeof maxEvents === 'string') return { ok: false, problem: maxEvents };
  if (typeof maxResponseBytes === 'string') return { ok: false, problem: maxResponseBytes };
  return { ok: true, caps: { maxEvents, maxResponseBytes } };
}
