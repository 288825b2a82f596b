p='scenarios/v2-eval-trajectory-trials/0244-a-rubric-trajectory.ts'
s=open(p).read()
old="""    { '3': { output: 'pending' } },
  ),
];"""
new="""    { '3': { output: 'pending' } },
  ),
  // 0.75 in every trial, exactly passScore: each trial passes (a gating score of at least passScore)
  judged('at-pass-score', 'refund approved', [
    ['refund approved', 0.75],
    ['30-day window', 0.25],
  ]),
];"""
assert old in s; s=s.replace(old,new,1)
old="""  ['mean-of-trials', 0.6, false],
];"""
new="""  ['mean-of-trials', 0.6, false],
  ['at-pass-score', 0.75, true],
];"""
assert old in s; s=s.replace(old,new,1)
s=s.replace("""    aggregateScore: 0.35,
    passed: false,
    taskCount: 4,
    passedCount: 1,""","""    aggregateScore: 0.43,
    passed: false,
    taskCount: 5,
    passedCount: 2,""",1)
s=s.replace("description: 'Seeded by openwop.requirement.0244.rubric-trajectory-gated: the scripted judge on weighted, verbatim, all-zero and trial-varying rubrics.'",
 "description: 'Seeded by openwop.requirement.0244.rubric-trajectory-gated: the scripted judge on weighted, verbatim, all-zero and trial-varying rubrics, and one scoring exactly passScore in every trial.'",1)
old="""        check.equal(served?.passed, passed, `seeded task ${taskId}: ${passed ? 'passes' : 'does not pass'} at passScore 0.75 under passRule "mean"`);
      }"""
new="""        check.equal(served?.passed, passed, `seeded task ${taskId}: ${passed ? 'passes' : 'does not pass'} at passScore 0.75 under passRule "mean"`);
      }
      // A trial whose gating score is exactly passScore passes: all four are counted (CONTRACT §6 Trial).
      check.rule('judge-trials-mean');
      const trials = summaryTask(weights.summary, 'at-pass-score')?.trials as { passedCount?: unknown } | undefined;
      check.equal(trials?.passedCount, 4, 'seeded task at-pass-score: each trial scores exactly passScore 0.75 and passes');
      for (const scored of eventsOfType(weights, 'eval.scored').filter((e) => payloadOf(e).taskId === 'at-pass-score')) {
        check.equal(payloadOf(scored).passed, true, `seeded task at-pass-score, trial ${String(payloadOf(scored).trialIndex)}: a score of exactly passScore passes`);
      }"""
assert old in s; s=s.replace(old,new,1)
s=s.replace("""      'judge-trials-mean': 'RFC 0244 §B as RFC 0246 corrects it (passRule "mean" reads the task gating score), CONTRACT §6 (Task)',""",
"""      'judge-trials-mean':
        'RFC 0244 §B as RFC 0246 corrects it (passRule "mean" reads the task gating score), CONTRACT §6 (Trial: it passes when its gating score is at least passScore; Task)',""",1)
s=s.replace("import { requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from '../support/eval-run.ts';",
"import { eventsOfType, payloadOf, requireCompleted, SCRIPTED_AGENT, sharedEvalRun, summaryTask } from '../support/eval-run.ts';",1)
s=s.replace("""//                                    the mean judged score, not the share of trials that passed.""","""//                                    the mean judged score, not the share of trials that passed; a trial
//                                    judged exactly passScore passes.""",1)
open(p,'w').write(s)
