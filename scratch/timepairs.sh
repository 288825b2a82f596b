#!/bin/bash
# usage: timepairs.sh N OUT — N alternating pairs of one certification, before (main's HEAD) then after:
# wall, user and system seconds of the command, the 1-minute load at the start of each run
n=$1; out=$2; : > $out
for i in $(seq 1 $n); do
  for side in before after; do
    tree=/work/wt/diet16; [ $side = before ] && tree=/work/wt/diet16-base
    load=$(cut -d' ' -f1 /proc/loadavg)
    t=$( { cd $tree && /usr/bin/time -f '%e %U %S' node bin/openwop-eval-conformance.mjs run --certify /tmp/X.json --archive /tmp/X.har.gz >/dev/null 2>/tmp/timepair.err; } 2>&1; tail -1 /tmp/timepair.err)
    echo "$i $side $(tail -1 /tmp/timepair.err) load $load" >> $out
  done
done
