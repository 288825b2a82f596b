#!/usr/bin/env python3
"""Paired differences (after - base) of scratch/pairs.sh output: wall, process CPU (user+sys), main-thread CPU."""
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
pairs = [rows[i:i + 2] for i in range(0, len(rows) - 1, 2)]
cols = {'wall s': lambda r: float(r[1]), 'process CPU ms': lambda r: (float(r[2]) + float(r[3])) * 1000, 'main thread CPU ms': lambda r: float(r[4])}
print(f'{len(pairs)} pairs, load {min(float(r[6]) for r in rows):.2f}-{max(float(r[6]) for r in rows):.2f}')
for name, f in cols.items():
    b = [f(next(r for r in p if r[0] == 'base')) for p in pairs]
    a = [f(next(r for r in p if r[0] == 'after')) for p in pairs]
    d = [x - y for x, y in zip(a, b)]
    print(f'{name:20} base median {statistics.median(b):8.2f}  after {statistics.median(a):8.2f}  paired diff median {statistics.median(d):+8.2f}  after lower in {sum(x < 0 for x in d)} of {len(d)}')
