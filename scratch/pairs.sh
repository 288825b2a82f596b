#!/bin/bash
# Alternating pairs of the command `npm start` runs (node bin/... run --certify --archive), base tree
# and this tree, each after `npm run build`: wall, process CPU, main-thread CPU, 1-min load.
# Usage: pairs.sh N OUT
N=$1; OUT=$2; : > $OUT
run() { # tree label
  rm -f /tmp/s15-tc-$2; local load=$(cut -d' ' -f1 /proc/loadavg)
  (cd $1 && THREADCPU_OUT=/tmp/s15-tc-$2 NODE_OPTIONS="--require /work/wt/sender15/scratch/threadcpu.cjs" /usr/bin/time -f "%e %U %S" -o /tmp/s15-time-$2 node bin/openwop-eval-conformance.mjs run --certify evidence/reference-host.bundle.json --archive evidence/reference-host.archive.har.gz > /dev/null 2>&1)
  echo "$2 $(cat /tmp/s15-time-$2) $(tail -1 /tmp/s15-tc-$2) $load" >> $OUT
}
for i in $(seq 1 $N); do
  if (( i % 2 )); then run /work/wt/sender15-base base; run /work/wt/sender15 after; else run /work/wt/sender15 after; run /work/wt/sender15-base base; fi
done
