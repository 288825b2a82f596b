#!/bin/bash
# Scratch: round-robin N rounds over marked trees; per run the main thread's CPU at legs-done and at reports, and wall to exit-event.
N=$1; shift
for i in $(seq $N); do for d in "$@"; do
  (cd $d && PHASE_MARKS=1 node bin/openwop-eval-conformance.mjs run --certify evidence/reference-host.bundle.json --archive evidence/reference-host.archive.har.gz 2>&1 | grep '@mark' | python3 -c "
import sys
m={}
for l in sys.stdin:
  r=l.split(); m[r[1]]=(float(r[2]), float(r[3]) if len(r)>3 else None)
t0=m['bin-start'][0]
print('$d', '$(cut -d' ' -f1 /proc/loadavg)', m['legs-done'][1], m['reports'][1], round(m['exit-event'][0]-t0), round(m['legs-done'][0]-t0), m.get('x-bytes',(0,0))[1])
")
done; done
