#!/bin/bash
# Paired, alternating runs of the 141 files outside the matrices: before (a clone of main) then
# after (this branch), N pairs; CPU-s = user + sys of npx vitest and its children (/usr/bin/time).
N=${1:-5}
OUT=${2:-/work/wt/suite15/scratch/pairs.txt}
for i in $(seq 1 "$N"); do
  for side in before after; do
    dir=/tmp/before-suite15; [ "$side" = after ] && dir=/work/wt/suite15
    l0=$(cut -d' ' -f1 /proc/loadavg)
    rm -f /tmp/s15-pc.jsonl
    ( cd "$dir" && S15_CHILD_OUT=/tmp/s15-pc.jsonl NODE_OPTIONS="--require /work/wt/suite15/scratch/child-cpu.cjs" /usr/bin/time -o /tmp/s15-pt -f "%e %U %S" npx vitest run --exclude 'test/*matrix*' > /tmp/s15-pair-$side-$i.log 2>&1 )
    l1=$(cut -d' ' -f1 /proc/loadavg)
    read -r wall user sys < <(tail -1 /tmp/s15-pt)
    tests=$(sed 's/\x1b\[[0-9;]*m//g' /tmp/s15-pair-$side-$i.log | grep -E '^ +Tests ' | tr -s ' ')
    dur=$(sed 's/\x1b\[[0-9;]*m//g' /tmp/s15-pair-$side-$i.log | grep -E 'Duration' | tr -s ' ')
    main=$(node -e 'const r=require("fs").readFileSync("/tmp/s15-pc.jsonl","utf8").trim().split("\n").map(JSON.parse).find((x)=>/\.bin\/vitest$/.test(x.argv[1]||""));console.log(r?r.cpu.toFixed(2):"?")')
    echo "pair $i $side main $main wall $wall cpu $(echo "$user + $sys" | bc) (user $user sys $sys) load $l0 -> $l1 |$tests |$dur" | tee -a "$OUT"
  done
done
