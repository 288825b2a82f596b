import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

// The tree's config with its module cache in a folder of one's own (S15_CACHE): two runs into two
// empty folders should write the same entries, byte for byte.
const root = fileURLToPath(new URL('..', import.meta.url));
export default defineConfig({ ...base, root, test: { ...base.test, experimental: { fsModuleCache: true, fsModuleCachePath: process.env.S15_CACHE ?? '/tmp/s15-vitest-cache' } } });
