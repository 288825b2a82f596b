#!/bin/bash
# Scratch: until $3 (epoch seconds), whenever the 1-minute load is under $4, one pair of `npm start`
# (before tree $1, then after tree $2), /usr/bin/time wall and CPU, the load before each, appended to $5.
B=$1; A=$2; UNTIL=$3; MAX=$4; OUT=$5
while [ $(date +%s) -lt $UNTIL ]; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk "BEGIN{exit !($load < $MAX)}"; then
    for side in before after; do
      dir=$B; [ $side = after ] && dir=$A
      l=$(cut -d' ' -f1 /proc/loadavg)
      (cd $dir && /usr/bin/time -o /tmp/qp.$side -f "TIME %e %U %S" npm start > /tmp/qpout.$side 2>&1)
      ex=$(grep -o "[0-9]* of [0-9]* exchanges" /tmp/qpout.$side | head -1)
      echo "$(date +%H:%M:%S) $side load $l $(cat /tmp/qp.$side) $ex" >> $OUT
    done
  else sleep 10; fi
done
