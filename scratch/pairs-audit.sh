#!/bin/bash
# Paired alternating runs of a few archive-writing test files: main's audit (before) and this
# branch's (after), each through a setup that logs each audit's CPU. Usage: pairs-audit.sh N OUT
N=${1:-5}; OUT=${2:-/tmp/o16/pairs-audit.txt}
FILES="test/archive-replay.test.ts test/archive-written-shape.test.ts test/cli-outputs.test.ts test/eval-certificate.test.ts test/hostile-redaction.test.ts test/replay-deadline.test.ts test/cli-edges.test.ts test/official-acceptance.test.ts test/hostile.test.ts"
for i in $(seq 1 $N); do
  for side in before after; do
    d=/work/wt/overhead16; [ $side = before ] && d=/work/wt/overhead16-base
    log=/tmp/o16/audit-$side-$i.txt; rm -f $log
    l0=$(cut -d' ' -f1 /proc/loadavg)
    t=$( { cd $d && AUDIT_OUT=$log /usr/bin/time -f '%e %U %S' npx vitest run --config vitest.measure.config.ts $FILES > /tmp/o16/vitest-$side-$i.log 2>&1; } 2>&1 | tail -1)
    t=$(tail -1 /tmp/o16/vitest-$side-$i.log)
    l1=$(cut -d' ' -f1 /proc/loadavg)
    audit=$(awk '{c+=$3; n++} END {printf "%d audits %.1f ms", n, c}' $log)
    tests=$(sed 's/\x1b\[[0-9;]*m//g' /tmp/o16/vitest-$side-$i.log | grep -E "^ +Tests " | tr -s ' ')
    echo "$i $side wall/user/sys: $t | $audit | load $l0 -> $l1 | $tests" | tee -a $OUT
  done
done
