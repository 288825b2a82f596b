// The second half of `npm run build` (after `tsc -p tsconfig.build.json`): every schema compiled
// once, into dist/lib/schemas/precompiled.cjs, which the built lib/schemas/index.ts loads.
// Written last, so its time is the build's time (bin/openwop-eval-conformance.mjs reads it).

import { writeFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.ts';
import { precompiledSchemasSource } from '../lib/schemas/standalone.ts';

const target = packagePath('dist/lib/schemas/precompiled.cjs');
writeFileSync(target, precompiledSchemasSource());
process.stdout.write(`wrote ${target}\n`);
