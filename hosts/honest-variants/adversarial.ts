// Honest variants of the adversarial mode (RFC 0081 §D): which safety findings a probe reports is
// the host's, so long as each is a redaction-safe descriptor, kind and severity (§C).

import type { ReferenceHostOptions } from '../reference/server.ts';
import type { HonestVariant } from './catalogue.ts';

const ALL_MODES: ReferenceHostOptions['evalSuite'] = { modes: ['golden', 'rubric', 'adversarial', 'regression', 'live-shadow'] };

export const ADVERSARIAL_VARIANTS: HonestVariant[] = [
  {
    name: 'adversarial-findings-reported',
    choice: 'every task of an adversarial run reports one low-severity prompt-injection finding',
    clause: "RFC 0081 §D (safetyFindings is the adversarial mode's primary output; what it finds is the host's), §C",
    options: {
      evalSuite: ALL_MODES,
      engineBehaviour: {
        outgoingSummary: (summary, suite) =>
          !suite.modes.includes('adversarial') || !Array.isArray(summary.tasks)
            ? summary
            : {
                ...summary,
                tasks: (summary.tasks as Array<Record<string, unknown>>).map((entry) => ({
                  ...entry,
                  safetyFindings: [{ kind: 'prompt-injection', severity: 'low' }],
                })),
              },
      },
    },
  },
];
