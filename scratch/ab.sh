# A/B of the client's CPU: the committed http.ts (new) against the one before the fix (bak),
# alternated, each `count.ts none 8` (8 in-process certifications of the reference host).
cd /work/wt/idleclose
for i in 1 2 3 4; do for f in new bak; do
  cp /tmp/idleclose-http.ts.$f lib/client/http.ts
  echo -n "$f "; /usr/bin/time -f "%U user %S sys %e wall" npx tsx scratch/count.ts none 8 2>&1 | tail -1
done; done
cp /tmp/idleclose-http.ts.new lib/client/http.ts
