import { defineConfig } from 'vitest/config';
import measured from './vitest.measure.config.ts';

// The measuring config, with a CPU profile of each fork.
export default defineConfig({ ...measured, test: { ...measured.test, execArgv: [...(measured.test?.execArgv ?? []), '--cpu-prof', '--cpu-prof-dir=/tmp/s15-prof', '--cpu-prof-interval=2000'] } });
