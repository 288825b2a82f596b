import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

// The tree's config, with a setup file first that records each test file's CPU (measure-setup.ts).
const root = fileURLToPath(new URL('..', import.meta.url));
const setupFiles = [fileURLToPath(new URL('measure-setup.ts', import.meta.url)), ...(base.test?.setupFiles as string[])];
export default defineConfig({ ...base, root, test: { ...base.test, setupFiles } });
