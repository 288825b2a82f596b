// The vitest adapter over the scenario index: one test per leg of every scenario module, each
// reporting its own id's row of one certification through the `run` pipeline (commands/vitest.ts),
// so vitest and `run` give the same rows. With OPENWOP_BASE_URL set, against that host;
// otherwise against the embedded reference host.

import { registerScenarios } from '../commands/vitest.ts';
import { loadScenarios } from './index.ts';

registerScenarios(await loadScenarios());
