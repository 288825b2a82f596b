// Known-bad hosts of the audit of the generated suites' comparisons (issue 29, item 1;
// requirements/README.md "Fixed witnesses of the generated suites"): each breaks a rule a generated
// suite varies and no earlier known-bad host broke alone, and each is killed with --generated 0
// by a catalogue fixture or a seeded probe.

import { type KnownBadHost, REF, engine } from './build.ts';

export const GENERATOR_AUDIT: KnownBadHost[] = [
  {
    name: 'fixture-args-ignored',
    defect: "a fixture entry's args are never read: the first unconsumed entry of the called tool answers, whatever its argsMatch",
    clause: 'RFC 0244 §D',
    ...engine({
      selectFixture: (entries, consumed, toolName) =>
        REF.selectFixture(
          entries.map((e) => ({ tool: e.tool, response: e.response, ...(e.isError === undefined ? {} : { isError: e.isError }) })),
          consumed,
          toolName,
          undefined,
        ),
    }),
  },
  {
    name: 'by-trial-ignored',
    defect: "a task's byTrial overrides are never applied: every trial runs the task's base script",
    clause: 'RFC 0244 §B, CONTRACT §3',
    ...engine({
      // The host reads the suite (its own copy, per run) as if no task had byTrial.
      featureRefusal: (suite, facets) => {
        for (const task of suite.tasks) if (typeof task.input === 'object' && task.input !== null) delete (task.input as { byTrial?: unknown }).byTrial;
        return REF.featureRefusal(suite, facets);
      },
    }),
  },
  {
    name: 'pass-score-ignored',
    defect: "the suite's thresholds.passScore is never read: every suite is held to the host's default bar of 1",
    clause: 'RFC 0081 §A, §C',
    ...engine({
      // The host reads the suite (its own copy, per run) as if it stated no passScore.
      featureRefusal: (suite, facets) => {
        if (suite.thresholds !== undefined) delete suite.thresholds.passScore;
        return REF.featureRefusal(suite, facets);
      },
    }),
  },
];
