#!/usr/bin/env python3
"""The multiset of (sender, method, path with ids folded) of archives (HAR, gzipped or not).
Usage: sentset.py A.har[.gz] B.har[.gz]  -> prints both sizes and every difference (none: equal)."""
import gzip, json, re, sys, collections
from urllib.parse import urlsplit

def load(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    return json.loads(raw)['log']['entries']

def fold(url):
    """The path and query with every generated id (tenant-scoped run ids in any escaping, hex, 22-char base64url) folded."""
    parts = urlsplit(url)
    def ids(text):
        text = re.sub(r'tenant-[ab](~2F|%2F|/)[\w-]+', '{id}', text)
        return re.sub(r'(?<![\w-])([0-9a-f]{16,}|[\w-]{22})(?![\w-])', '{id}', text)
    return ids(parts.path) + ('?' + ids(parts.query) if parts.query else '')

# --answered: leave out the exchanges a host refused with 503/429 (each asked again, retry.ts): with
# a host that refuses the first request of each kind, which leg's request comes first is a race
# between concurrent legs, so which sender's request took the refusal varies run to run.
ANSWERED = '--answered' in sys.argv
args = [a for a in sys.argv[1:] if a != '--answered']

def multiset(path):
    return collections.Counter(
        (e.get('_sentBy'), e['request']['method'], fold(e['request']['url']))
        for e in load(path)
        if not (ANSWERED and e['response'].get('status') in (429, 503))
    )

sys.argv[1:] = args
a, b = multiset(sys.argv[1]), multiset(sys.argv[2])
print(f'{sys.argv[1]}: {sum(a.values())} exchanges, {len(a)} distinct; senders: {len({k[0] for k in a})}, none: {sum(v for k, v in a.items() if k[0] is None)}')
print(f'{sys.argv[2]}: {sum(b.values())} exchanges, {len(b)} distinct; senders: {len({k[0] for k in b})}, none: {sum(v for k, v in b.items() if k[0] is None)}')
diff = sorted(set(a) | set(b), key=lambda k: tuple(str(x) for x in k))
d = [(k, a[k], b[k]) for k in diff if a[k] != b[k]]
for k, x, y in d:
    print('DIFF', k, x, '->', y)
print('EQUAL multisets' if not d else f'{len(d)} keys differ')
