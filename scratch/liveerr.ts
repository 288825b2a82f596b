// The hosts of this round: the two killers of the catalogue, the honest -3 twin, and the round 8/9
// red-team hosts they close, certified against the honest reference.
import type { KnownBadHost } from '../hosts/known-bad/catalogue/build.ts';
import { LIVE_TOOL_ERRORS } from '../hosts/known-bad/catalogue/live-tool-errors.ts';

export const HONEST: KnownBadHost = { name: 'honest', defect: 'none', clause: '-', base: {}, options: {} };

export const REDTEAM_HOSTS: KnownBadHost[] = [
  ...LIVE_TOOL_ERRORS,
  { name: 'no-live-tool-errors', defect: 'none (advertises -3)', clause: '-', base: {}, options: { liveToolErrors: false } },
  {
    name: 'killers-on-seams-3',
    defect: 'live-miss-error-fails-closed advertising -3 (must survive: no such call is sent)',
    clause: '-',
    base: {},
    options: { ...LIVE_TOOL_ERRORS[0]!.options, liveToolErrors: false },
  },
];
