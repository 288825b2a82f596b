#!/bin/bash
# Scratch: N runs of the marked tree $1: the worker's CPU at its marks, the main thread's CPU after the legs, exit.
cd $1; for i in $(seq ${2:-4}); do PHASE_MARKS=1 node bin/openwop-eval-conformance.mjs run --certify evidence/reference-host.bundle.json --archive evidence/reference-host.archive.har.gz 2>&1 | grep '@mark' | python3 -c "
import sys
m={}
for l in sys.stdin:
  r=l.split(); m[r[1]]=(float(r[2]), float(r[3]) if len(r)>3 else None)
t0=m['bin-start'][0]
g=lambda k,i=0: m.get(k,(float('nan'),float('nan')))[i]
print(f\"load $(cut -d' ' -f1 /proc/loadavg) worker cpu loaded {g('x-loaded',1):5.1f} last-taken {g('x-last-taken',1):5.1f} bytes {g('x-bytes',1):5.1f} | main cpu legs-done {g('legs-done',1):5.0f} reports {g('reports',1):5.0f} (after legs {g('reports',1)-g('legs-done',1):4.0f}) | wall legs-done {g('legs-done')-t0:5.0f} gzip-wait {g('gzip-wait')-t0:5.0f} x-bytes {g('x-bytes')-t0:5.0f} exit-ev {g('exit-event')-t0:5.0f}\")
"; done
