// Honest variants of the seams a host mounts (CONTRACT §5): which version of this harness's own
// seams a host offers is the host's choice, and a host with only the first seams certifies clean,
// its legs that read effects run alone; a host without the hold step (CONTRACT §3) certifies clean
// too, its summary row inapplicable whenever its runs end before the harness asks; a host that
// does not advertise the live counter's tool error (version 4) is sent no call that answers one.

import { GLOBAL_READING } from '../../lib/ledger/target.ts';
import type { HonestVariant } from './catalogue.ts';

export const SEAM_VARIANTS: HonestVariant[] = [
  {
    name: 'old-seams-only',
    choice: 'the seams without the per-run effect reading: effects are read from the global counter, the legs reading them run alone',
    clause: 'RFC 0244 §D, RFC 0252 §D (the live calls the seams of CONTRACT §5 make observable; evalSeamsProfile 2 is optional)',
    shows: GLOBAL_READING,
    options: { runEffects: false },
  },
  {
    name: 'no-hold-step',
    choice: "the per-run reading without the scripted agent's hold step (evalSeamsProfile 2): a running run is met only by chance",
    clause: 'RFC 0081 §B, RFC 0252 §C (a running run, met by chance without the hold step: CONTRACT §3, §5, evalSeamsProfile 3 is optional)',
    shows: 'the host offers no hold step',
    options: { holds: false },
  },
  {
    name: 'no-live-tool-errors',
    choice: 'the hold step without evalSeamsProfile 4: the live counter is not held to answer another op with a tool error, and is sent no such call',
    clause: 'RFC 0244 §D (a live miss that errors, reached only through CONTRACT §5, evalSeamsProfile 4 is optional)',
    shows: 'the host does not advertise evalSeamsProfile 4',
    options: { liveToolErrors: false },
  },
];
