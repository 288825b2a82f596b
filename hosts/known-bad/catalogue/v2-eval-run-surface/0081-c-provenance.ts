// Known-bad hosts of the summary's provenance (RFC 0081 §C): each entry one named defect in what
// the summary says was evaluated.

import { type KnownBadHost, engine } from '../build.ts';

export const PROVENANCE: KnownBadHost[] = [
  {
    name: 'evaluated-model-class-not-allowed',
    defect: 'the summary names evaluatedModelClass coding for a suite whose allowedModels are general only',
    clause: 'RFC 0081 §C',
    ...engine({
      outgoingSummary: (summary, suite) =>
        suite.allowedModels !== undefined && !suite.allowedModels.includes('coding') ? { ...summary, evaluatedModelClass: 'coding' } : summary,
    }),
  },
];
