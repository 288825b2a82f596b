#!/bin/bash
# usage: cut-figures.sh DIR — for each cut, the inclusive ms per run of the functions it touched, before / after
# (mean over the profiles of DIR/before and DIR/after; a function not sampled in a build reads 0)
d=$1
fig() { # label regex [regex of the after build, when its functions are others]
  b=$(node /tmp/proftools/incl_agg.mjs "$2" $d/before/*.cpuprofile | awk '{s+=$1} END{printf "%.1f", s}')
  a=$(node /tmp/proftools/incl_agg.mjs "${3:-$2}" $d/after/*.cpuprofile | awk '{s+=$1} END{printf "%.1f", s}')
  echo -e "$1\t$b\t$a"
}
echo -e "cut\tbefore ms\tafter ms"
fig "redact: escapes by native searches (decodeSpelled)" '^decodeSpelled:'
fig "content strings once per document (suiteContentStrings)" '^suiteContentStrings:'
fig "gcd without an array per step (the grader's gcd)" '^gcd2:'
fig "content walkers by index (forbiddenKeys, both servedStrings)" '^(forbiddenKeys|servedStrings|servedStrings2):'
fig "  their callers (assertContentFree, contentInStrings)" '^(assertContentFree|contentInStrings):'
fig "flattenHeaders by index" '^flattenHeaders:'
fig "matchRoute in one pass" '^matchRoute:'
fig "projectId by index" '^projectId:'
fig "secrets listed on failure only (secretsFor)" '^secretsFor:'
fig "canonical JSON: surrogates told by a native search (our hasLoneSurrogate)" "^hasLoneSurrogate2:"
fig "SSE text decoded once (the TextDecoder decode calls)" "^decode:"
fig "date-time format (before: ajv-formats' date_time; after: the format's validate, commonDateTime and any fallback within)" '^date_time:' '^validate:1718[0-9]$'
fig "GC" '^\(garbage collector\):'
fig "whole thread, sampled (root)" '^\(root\):'
fig "  of which idle" '^\(idle\):'
