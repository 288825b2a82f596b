#!/bin/bash
# usage: alt.sh OUT N — N alternating profiled certifications: before (main's HEAD, /work/wt/diet16-base), after (this tree)
out=$1; n=$2
for i in $(seq 1 $n); do
  echo "$(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> $out.load
  /work/wt/diet16/scratch/prof.sh /work/wt/diet16-base $out/before 1
  /work/wt/diet16/scratch/prof.sh /work/wt/diet16 $out/after 1
done
