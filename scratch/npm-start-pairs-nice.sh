#!/bin/bash
# Scratch: `npm start` in the before clone ($1) and the after clone ($2), alternating, N pairs ($3);
# each: /usr/bin/time wall and CPU (user+sys of npm and all it starts), the 1-minute load before it,
# the exchanges line it printed; a bare `node -e 0` before each pair. Medians at the end.
B=$1; A=$2; N=${3:-5}; OUT=${4:-/tmp/spnpairs.txt}
: > $OUT
for i in $(seq $N); do
  bare=$( { /usr/bin/time -f "%e" node -e 0; } 2>&1 )
  for side in before after; do
    dir=$B; [ $side = after ] && dir=$A
    load=$(cut -d' ' -f1 /proc/loadavg)
    (cd $dir && nice -n -15 /usr/bin/time -o /tmp/spntime.$side -f "TIME %e %U %S" npm start > /tmp/spnout.$side 2>&1); res=$(grep TIME /tmp/spntime.$side)
    ex=$(grep -o "[0-9]* of [0-9]* exchanges" /tmp/spnout.$side)
    echo "$side load $load bare $bare $res $ex" | tee -a $OUT
  done
done
python3 - $OUT <<'PY'
import sys,statistics as st
rows=[l.split() for l in open(sys.argv[1])]
for side in ('before','after'):
    r=[x for x in rows if x[0]==side]
    wall=[float(x[6]) for x in r]; cpu=[float(x[7])+float(x[8]) for x in r]; load=[float(x[2]) for x in r]
    print(f"{side}: wall {' '.join(f'{w:.2f}' for w in wall)} median {st.median(wall):.2f}; cpu median {st.median(cpu):.2f}; load {min(load)}-{max(load)}")
PY
