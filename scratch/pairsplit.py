# Scratch: from two phase-table raw files (alternating runs), per pair: the wall of the legs (started-line → legs-done),
# after them (legs-done → exit), spawn → exit, and the main thread's CPU after the legs and in all; medians and how many pairs went down.
import sys, re, statistics as st
def runs(f):
    out=[]; cur=None
    for line in open(f):
        if line.startswith('load'): cur={'load':float(line.split()[1]),'m':{},'c':{}}; out.append(cur); continue
        if line.startswith('T0'): cur['T0']=float(line.split()[1]); continue
        m=re.search(r'@mark (\S+) ([\d.]+)(?: ([\d.]+))?',line)
        if m:
            cur['m'][m.group(1)]=float(m.group(2))-cur['T0']
            if m.group(3) and not m.group(1).startswith(('w-','x-')): cur['c'][m.group(1)]=float(m.group(3))
        if 'started the embedded' in line: cur['m']['started-line']=float(line.split()[0])
        m=re.search(r'exit (\d+) code',line)
        if m: cur['m']['exit']=float(m.group(1)); cur['cpu']=float(re.search(r'last poll\) (\d+)',line).group(1))
    return out
B=runs(sys.argv[1]); A=runs(sys.argv[2])
def f(r):
    m,c=r['m'],r['c']
    return {'load':r['load'],'legs':m['legs-done']-m['started-line'],'after':m['exit']-m['legs-done'],'exit':m['exit'],
            'cpu_after':c['reports']-c['legs-done'],'cpu_all':c['reports']}
fb=[f(r) for r in B]; fa=[f(r) for r in A]
for k in ['legs','after','exit','cpu_after','cpu_all']:
    b=[x[k] for x in fb]; a=[x[k] for x in fa]
    d=[y-x for x,y in zip(b,a)]
    print(f"{k:10} before median {st.median(b):7.1f}  after median {st.median(a):7.1f}  paired diff median {st.median(d):+7.1f}  lower in {sum(1 for x in d if x<0)} of {len(d)}")
print('loads', min(x['load'] for x in fb+fa), '-', max(x['load'] for x in fb+fa))
