#!/bin/bash
# usage: prof.sh TREE OUTDIR N  — N profiled certifications of TREE's build
tree=$1; out=$2; n=$3
mkdir -p $out
for i in $(seq 1 $n); do
  d=$(mktemp -d)
  (cd $tree && node --cpu-prof --cpu-prof-dir=$d bin/openwop-eval-conformance.mjs run --certify $d/b.json --archive $d/b.har.gz >/dev/null 2>&1)
  f=$(ls $d/*.cpuprofile | sort | head -1)
  mv $f $out/$(date +%s%N).001.cpuprofile; rm -rf $d
done
