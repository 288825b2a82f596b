// Honest variants of the registered regression methods (RFC 0244 §F, UQ 5): each serves a verdict
// under `mcnemar` or `paired-t`, in one of the method's textbook forms and at an alpha other than
// the reference host's, and must certify clean (the harness recomputes every form,
// lib/grader/regression-methods.ts); and a host that serves no verdict at all.

import { mcnemarVerdict, pairedTVerdict } from '../reference/eval/methods.ts';
import type { HonestVariant } from './catalogue.ts';

export const REGRESSION_METHOD_VARIANTS: HonestVariant[] = [
  {
    name: 'regression-method-mcnemar',
    choice: "the verdict is McNemar's exact test over the paired tasks' pass flips, at alpha 0.05",
    clause: "RFC 0244 §F, UQ 5 (mcnemar is a registered method; its internals are the host's)",
    shows: 'regression method mcnemar',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'mcnemar', alpha: 0.05 },
        regressionVerdict: (_up, _down, pairs = []) => mcnemarVerdict(pairs, 0.05),
      },
    },
  },
  {
    name: 'regression-method-mcnemar-chi-squared-alpha-01',
    choice: "the verdict is McNemar's χ² test with Edwards' continuity correction, at alpha 0.01",
    clause: "RFC 0244 §F, UQ 5 (the method's form and alpha are the host's)",
    shows: 'a mcnemar verdict at alpha 0.01',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'mcnemar', alpha: 0.01 },
        regressionVerdict: (_up, _down, pairs = []) => mcnemarVerdict(pairs, 0.01, 'chi-squared-corrected'),
      },
    },
  },
  {
    name: 'regression-method-paired-t',
    choice: "the verdict is the paired t test over the paired tasks' scores, at alpha 0.05",
    clause: "RFC 0244 §F, UQ 5 (paired-t is a registered method; its internals are the host's)",
    shows: 'regression method paired-t',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'paired-t', alpha: 0.05 },
        regressionVerdict: (_up, _down, pairs = []) => pairedTVerdict(pairs, 0.05),
      },
    },
  },
  {
    name: 'regression-method-paired-t-alpha-001',
    choice: 'the verdict is the paired t test at alpha 0.001: six rises of twelve (p ≈ 0.0069) are inconclusive',
    clause: "RFC 0244 §F (alpha is the host's; inconclusive when the method cannot distinguish the runs at alpha)",
    shows: 'a paired-t verdict at alpha 0.001',
    options: {
      engineBehaviour: {
        regressionMethod: { method: 'paired-t', alpha: 0.001 },
        regressionVerdict: (_up, _down, pairs = []) => pairedTVerdict(pairs, 0.001),
      },
    },
  },
];
