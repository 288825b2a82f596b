// Honest variants of the summary's provenance (RFC 0081 §C): `evaluatedModelClass` is optional,
// and served it names the class of model the run evaluated, one the suite allows (§A).

import type { HonestVariant } from './catalogue.ts';

export const PROVENANCE_VARIANTS: HonestVariant[] = [
  {
    name: 'evaluated-model-class-served',
    choice: "the summary names evaluatedModelClass general (the scripted agent's class) for every suite that allows it",
    clause: 'RFC 0081 §C (suiteId/suiteVersion/evaluatedModelClass provenance), §A (allowedModels)',
    shows: 'evaluatedModelClass general served',
    options: {
      engineBehaviour: {
        outgoingSummary: (summary, suite) =>
          suite.allowedModels === undefined || suite.allowedModels.includes('general') ? { ...summary, evaluatedModelClass: 'general' } : summary,
      },
    },
  },
];
