const inspector = require('node:inspector'); const fs = require('node:fs');
const s = new inspector.Session(); s.connect();
s.post('HeapProfiler.enable'); s.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
process.on('exit', () => { s.post('HeapProfiler.stopSampling', (err, r) => { if (err) { fs.writeSync(2, String(err)); return; } fs.writeFileSync('/tmp/prof/heap.json', JSON.stringify(r.profile)); }); });
