// Replays an archive saved by hostile-replay.ts (SAVE=FILE) and prints the moved rows.
// `npx tsx scratch/replay-only.ts FILE`
import { readFileSync } from 'node:fs';
import { replayCertification, rowDifferences } from '../lib/archive/replay.ts';
import { loadScenarios } from '../scenarios/index.ts';

const { har, rows } = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const started = performance.now();
const replay = await replayCertification(har, await loadScenarios());
console.log(`replayed in ${((performance.now() - started) / 1000).toFixed(1)} s; misses ${replay.misses.length}, repeats ${replay.repeats.length} ${replay.repeats.join(' | ')}, refused ${replay.refused.length}`);
console.log(rowDifferences(rows, replay.rows).join('\n').slice(0, 3000) || 'no row moved');
process.exit(0);
