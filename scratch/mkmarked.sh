#!/bin/bash
# Scratch: a copy of this worktree's files at $1 with the phase marks (scratch/marks.py, plus the
# hand-off and the archive thread's own marks), built.
set -e
D=${1:-/tmp/sp-after-m}
rm -rf $D && mkdir $D
cd /work/wt/startpipe && git ls-files -co --exclude-standard | grep -v '^node_modules' | tar cf - -T - | tar xf - -C $D
cd $D && ln -s /work/main/node_modules node_modules && python3 /work/wt/startpipe/scratch/marks.py
python3 - <<'PY'
M = "(process.env.PHASE_MARKS && process.stderr.write(`@mark %s ${(performance.timeOrigin + performance.now()).toFixed(1)} ${(Number(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6).toFixed(1)}\\n`));"
def patch(p, pairs, head=''):
    s=open(p).read()
    for a,b in pairs:
        if a not in s: print('anchor missing', p, a[:50]); continue
        s=s.replace(a,b,1)
    open(p,'w').write(head+s if head and 'createRequire(import.meta.url);\nconst require' not in s else s)
patch('lib/ledger/runner.ts', [("  options.onLegsDone?.();\n","  "+M%'legs-end'+"\n  options.onLegsDone?.();\n")])
MW = M.replace('process.stderr.write(', "require('node:fs').writeSync(2, ")
patch('lib/archive/encode-worker.ts', [
 ("const port = parentPort!;\n", "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n"+MW%'x-loaded'+"\nconst port = parentPort!;\n"),
 ("  if (message.finish === undefined) return;\n", "  if (message.finish === undefined) return;\n  "+MW%'x-last-taken'+"\n"),
 ("  port.postMessage(answer);\n", "  "+MW%'x-bytes'+"\n  port.postMessage(answer);\n"),
])
PY
npm run build 2>&1 | tail -1
