// The harness's client: HTTP transport, id projection, OpenWOP operations, event reading, seams.

export * from './http.ts';
export * from './transport-errors.ts';
export * from './ids.ts';
export * from './openwop.ts';
export { isRetriable, MAX_ATTEMPTS, RateLimited, retryAfterMs } from './retry.ts';
export * from './budget.ts';
export { REPLAY_TIMEOUT_HEADER, type VirtualWaits } from './virtual-waits.ts';
