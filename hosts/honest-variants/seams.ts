// Honest variants of the seams a host mounts (CONTRACT §5): which version of this harness's own
// seams a host offers is the host's choice, and a host with only the first seams certifies clean,
// its legs that read effects run alone.

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
];
