import { DATE_TIME } from '../lib/schemas/date-time.ts';
import { fullFormats } from 'ajv-formats/dist/formats.js';
const full = (fullFormats['date-time'] as any).validate; const ours = DATE_TIME.validate as any;
const xs = Array.from({ length: 6000 }, (_, i) => new Date(1.7e12 + i * 7777).toISOString());
for (const [n, f] of [['full', full], ['ours', ours], ['full', full], ['ours', ours]] as const) { const t0 = performance.now(); let c = 0; for (const x of xs) if (f(x)) c++; console.log(n, (performance.now() - t0).toFixed(2), c); }
