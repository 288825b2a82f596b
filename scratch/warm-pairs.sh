#!/bin/bash
# Alternating rounds of scratch/warm.ts in the base tree and this one, with the 1-min load.
N=$1; OUT=$2; : > $OUT
run() { local load=$(cut -d' ' -f1 /proc/loadavg); echo "$2 $load $(cd $1 && npx tsx scratch/warm.ts ${MEASURED:-3} 2>/dev/null | tail -1)" >> $OUT; }
for i in $(seq 1 $N); do
  if (( i % 2 )); then run /work/wt/sender15-base base; run /work/wt/sender15 after; else run /work/wt/sender15 after; run /work/wt/sender15-base base; fi
done
