# Scratch: two `npm start` archives compared as multisets of (sender, method, path with ids folded,
# status, endedBy, failure) and the bundles' rows; prints the differences.
import sys, json, gzip, re, collections
def entries(d):
    a = json.loads(gzip.open(f'{d}/evidence/reference-host.archive.har.gz').read())
    c = collections.Counter()
    for e in a['log']['entries']:
        path = re.sub(r'^http://127\.0\.0\.1:\d+', '', e['request']['url'])
        path = re.sub(r'~2F[A-Za-z0-9_-]+', '~2FID', path)
        r = e['response']
        c[(e.get('_sentBy'), e['request']['method'], path, r['status'], r.get('_endedBy'), r.get('_failure'))] += 1
    return a['log']['_certification'], c
def rows(d):
    b = json.load(open(f'{d}/evidence/reference-host.bundle.json'))
    return b
s1, c1 = entries(sys.argv[1]); s2, c2 = entries(sys.argv[2])
print('settings equal:', s1 == s2, 'entries', sum(c1.values()), sum(c2.values()))
d = (c1 - c2) + (c2 - c1)
print('multiset differences:', sum(d.values()))
for k, n in list(d.items())[:10]: print('  ', n, k)
