# Scratch: the members that differ between two `npm start` outputs (bundle, archive), by JSON path
# with array indexes and digits folded, after the archives are gunzipped and parsed.
import sys, json, gzip, re, collections
def load(d):
    b = json.load(open(f'{d}/evidence/reference-host.bundle.json'))
    a = json.loads(gzip.open(f'{d}/evidence/reference-host.archive.har.gz').read())
    c = json.load(open(f'{d}/evidence/reference-host.bundle.eval-certificate.json'))
    return {'bundle': b, 'archive': a, 'certificate': c}
diffs = collections.Counter(); examples = {}
def walk(x, y, path):
    if type(x) != type(y): diffs[path] += 1; examples.setdefault(path, (str(x)[:80], str(y)[:80])); return
    if isinstance(x, dict):
        for k in set(x) | set(y):
            if k not in x or k not in y: diffs[path + '.' + k + '(missing)'] += 1; continue
            walk(x[k], y[k], path + '.' + k)
    elif isinstance(x, list):
        if len(x) != len(y): diffs[path + '(len)'] += 1; examples.setdefault(path + '(len)', (len(x), len(y)))
        for i, (p, q) in enumerate(zip(x, y)): walk(p, q, path + '[]')
    elif x != y:
        diffs[path] += 1; examples.setdefault(path, (str(x)[:100], str(y)[:100]))
A, B = load(sys.argv[1]), load(sys.argv[2])
for k in A: walk(A[k], B[k], k)
for p, n in sorted(diffs.items()): print(f'{n:6d} {p}   e.g. {examples.get(p)}')
