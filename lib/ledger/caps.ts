// Memory caps a vendor can set (docs/certifying.md "Memory caps"), read with the other settings
// (commands/support/run-settings.ts). The caps bound what the harness holds, whatever the host
// sends: the events of one run, and the bytes of one response (one run's event log counts as
// one); and over all the runs read at once, the events and bytes held (lib/client/budget.ts).
// Reaching any makes the row `blocked`, naming the cap (lib/client/transport-errors.ts
// HarnessCapReached), never the host's `executed-fail`. The timeout scale does not touch them.

import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_BYTES_IN_FLIGHT, DEFAULT_MAX_EVENTS, DEFAULT_MAX_EVENTS_IN_FLIGHT } from '../client/index.ts';

export interface Caps {
  maxEvents: number;
  maxResponseBytes: number;
  maxEventsInFlight: number;
  maxBytesInFlight: number;
}

export const DEFAULT_CAPS: Caps = {
  maxEvents: DEFAULT_MAX_EVENTS,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  maxEventsInFlight: DEFAULT_MAX_EVENTS_IN_FLIGHT,
  maxBytesInFlight: DEFAULT_MAX_BYTES_IN_FLIGHT,
};
