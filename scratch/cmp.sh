#!/bin/bash
# usage: cmp.sh DIR 'REGEX' — inclusive ms per run of the functions matching REGEX, before and after
d=$1; re=$2
paste <(node /tmp/proftools/incl_agg.mjs "$re" $d/before/*.cpuprofile | sed 's/:[0-9]*$//' | sort -k2) <(node /tmp/proftools/incl_agg.mjs "$re" $d/after/*.cpuprofile | sed 's/:[0-9]*$//' | sort -k2)
