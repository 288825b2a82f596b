#!/usr/bin/env python3
"""Paired (after - base) CPU of scratch/warm-pairs.sh rounds: per process, the sum and the last of its 3 measured certifications."""
import sys, statistics
rows = []
for l in open(sys.argv[1]):
    label, load, rest = l.split(' ', 2)
    certs = [tuple(map(float, c.split())) for c in rest.split('|')]
    rows.append((label, float(load), [c[0] for c in certs]))
pairs = [rows[i:i + 2] for i in range(0, len(rows) - 1, 2)]
print(f'{len(pairs)} rounds, load {min(r[1] for r in rows):.2f}-{max(r[1] for r in rows):.2f}')
for name, f in {'CPU of the measured ones ms': sum, 'CPU of the last one ms': lambda c: c[-1], 'median of the measured ms': statistics.median}.items():
    b = [f(next(r for r in p if r[0] == 'base')[2]) for p in pairs]
    a = [f(next(r for r in p if r[0] == 'after')[2]) for p in pairs]
    d = [x - y for x, y in zip(a, b)]
    print(f'{name:34} base median {statistics.median(b):7.0f}  after {statistics.median(a):7.0f}  paired diff median {statistics.median(d):+6.0f} ({statistics.median(d) / statistics.median(b) * 100:+.1f} %)  after lower in {sum(x < 0 for x in d)} of {len(d)}')

# Pooled: each measured certification against the same-position one of its round's other tree.
d = [x - y for p in pairs for x, y in zip(next(r for r in p if r[0] == 'after')[2], next(r for r in p if r[0] == 'base')[2])]
b = [c for p in pairs for c in next(r for r in p if r[0] == 'base')[2]]
print(f'pooled by position: {len(d)} pairs, diff median {statistics.median(d):+.0f} ms ({statistics.median(d) / statistics.median(b) * 100:+.1f} % of {statistics.median(b):.0f}), after lower in {sum(x < 0 for x in d)} of {len(d)}')
