#!/bin/bash
# Alternating pairs of `npm start` (npm and all it starts, /usr/bin/time: wall, user, sys) with the 1-min load.
N=$1; OUT=$2; : > $OUT
run() { local load=$(cut -d' ' -f1 /proc/loadavg); (cd $1 && /usr/bin/time -f "%e %U %S" -o /tmp/s15-npm-$2 npm start > /dev/null 2>&1); echo "$2 $(cat /tmp/s15-npm-$2) 0 0 $load" >> $OUT; }
for i in $(seq 1 $N); do
  if (( i % 2 )); then run /work/wt/sender15-base base; run /work/wt/sender15 after; else run /work/wt/sender15 after; run /work/wt/sender15-base base; fi
done
