import json,re,sys
p='hosts/known-bad/kill-matrix.json'
s=open(p).read()
pins={
 'judge-criteria-unweighted':(['0244.rubric-trajectory-gated'],['0244.rubric-trajectory-gated/judge-trials-mean','0244.rubric-trajectory-gated/judge-weighted']),
 'judge-criteria-case-insensitive':(['0244.rubric-trajectory-gated'],['0244.rubric-trajectory-gated/judge-weighted']),
 'judge-zero-weights-score-one':(['0244.rubric-trajectory-gated'],['0244.rubric-trajectory-gated/judge-weighted']),
 'mean-rule-reads-passed-share':(['0081.eval-run-events','0081.summary-served','0244.rubric-trajectory-gated','0244.trial-stats-formula'],['0081.eval-run-events/served-completed','0081.summary-served/served-summary-verdict','0244.rubric-trajectory-gated/judge-trials-mean','0244.trial-stats-formula/served-trial-outcome']),
 'json-match-nested-members-admitted':(['0081.eval-run-events','0081.golden-match-strategies','0081.summary-served'],['0081.eval-run-events/served-completed','0081.golden-match-strategies/json-match','0081.summary-served/served-summary-verdict','0081.summary-served/served-task-outcome']),
 'null-answer-matches-golden':(['0081.eval-run-events','0081.golden-match-strategies','0081.summary-served'],['0081.eval-run-events/served-completed','0081.golden-match-strategies/null-answer','0081.summary-served/served-summary-verdict','0081.summary-served/served-task-outcome']),
}
# hosts block ends before "\n  },\n  \"schemaMutants\""
hosts_lines=''.join(',\n    "%s": [%s]'%(n,', '.join('"openwop.requirement.%s"'%i for i in ids)) for n,(ids,_) in pins.items())
rules_lines=''.join(',\n    "%s": [%s]'%(n,', '.join('"%s"'%r for r in rules)) for n,(_,rules) in pins.items())
i=s.index('\n  },\n  "schemaMutants"')
s=s[:i]+hosts_lines+s[i:]
j=s.rindex('\n  }\n}')
s=s[:j]+rules_lines+s[j:]
json.loads(s)
open(p,'w').write(s)
