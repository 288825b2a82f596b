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
  {
    name: 'effects-last-tool-dropped',
    defect: 'the per-run effect reading leaves out the last tool (by name) when the run reached two or more tools live',
    clause: 'RFC 0244 §D (onMiss "live" reaches the live tool, each call counted per run and by tool name by the seam of CONTRACT §5)',
    ...server({
      servedRunEffects: (effects) => {
        const names = Object.keys(effects).sort();
        if (names.length < 2) return effects;
        const { [names[names.length - 1]!]: _, ...rest } = effects;
        return rest;
      },
    }),
  },
];
