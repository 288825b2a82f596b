// Known-bad hosts of the per-run effect reading (CONTRACT §5): each one named defect in what
// `GET /conformance/seams/runs/{runId}/effects` serves.

import { type KnownBadHost, server } from './build.ts';

export const SEAMS: KnownBadHost[] = [
  {
    name: 'run-effects-uncounted',
    defect: 'the per-run effect reading serves no calls, whatever the run let through to the live tools',
    clause: 'RFC 0244 §D (onMiss "live" reaches the live tool, counted per run by the seam of CONTRACT §5)',
    ...server({ servedRunEffects: () => ({}) }),
  },
];
