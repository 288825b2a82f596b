#!/bin/bash
# Scratch: N runs of the phase wrapper (scratch/phases.mjs) in the tree $1: each mark's time from
# spawn (median), the step from the mark before it, the exit, and the main thread's CPU.
# With RAW=FILE, the runs are read from FILE (written by earlier calls with KEEP=FILE, appended) instead.
if [ -z "$RAW" ]; then
  cd "${1:-.}"; N=${2:-5}; RAW=${KEEP:-/tmp/s4phase.$$}
  for i in $(seq $N); do echo "load $(cut -d' ' -f1 /proc/loadavg)"; node /work/wt/startpipe/scratch/phases.mjs . ; done >> $RAW
fi
python3 - $RAW <<'PY'
import sys,re,statistics as st
runs=[];cur=None
for line in open(sys.argv[1]):
    if line.startswith('load'): cur={'load':float(line.split()[1]),'m':{}}; runs.append(cur); continue
    if line.startswith('T0'): cur['T0']=float(line.split()[1]); continue
    m=re.search(r'@mark (\S+) ([\d.]+)(?: ([\d.]+))?',line)
    if m:
        cur['m'][m.group(1)]=float(m.group(2))-cur['T0']
        if m.group(3) and not m.group(1).startswith('w-'): cur.setdefault('c',{})[m.group(1)]=float(m.group(3))
    if 'started the embedded' in line: cur['m']['started-line']=float(line.split()[0])
    m=re.search(r'exit (\d+) code',line)
    if m: cur['m']['exit']=float(m.group(1)); cur['maincpu']=float(re.search(r'last poll\) (\d+)',line).group(1))
print('loads', [r['load'] for r in runs])
print('main cpu', [r['maincpu'] for r in runs], 'median', st.median([r['maincpu'] for r in runs]))
names=sorted(runs[0]['m'], key=lambda n: st.median([r['m'][n] for r in runs if n in r['m']]))
prev=None; prevc=None
for n in names:
    xs=[r['m'].get(n, float('nan')) for r in runs]; med=st.median([x for x in xs if x==x])
    cs=[r.get('c',{}).get(n) for r in runs]; cs=[c for c in cs if c is not None]
    cmed=st.median(cs) if cs else None
    step='' if prev is None else f'step {med-prev:6.1f}'
    cstep='' if cmed is None else (f'main cpu {cmed:6.1f}' + ('' if prevc is None else f' (+{cmed-prevc:5.1f})'))
    print(f'{n:>20} {med:7.1f} {step:12} {cstep:28}  ', ' '.join(f'{x:.0f}' for x in xs)); prev=med
    if cmed is not None: prevc=cmed
PY
