// Installs, in every vitest worker, what lib/ stays free of: the bridge that turns a collected
// scenario file's legs into tests (lib/ledger/vitest.ts), and the embedded reference host those
// legs run against when OPENWOP_BASE_URL is unset.

import { setScenarioRegistrar } from '../../lib/ledger/scenario.ts';
import { registerIfCollecting, setEmbeddedHostFactory } from '../../lib/ledger/vitest.ts';

setScenarioRegistrar(registerIfCollecting);
// Imported on first use: most test files never start it through the bridge.
setEmbeddedHostFactory(async (options) => (await import('../../hosts/reference/server.ts')).startReferenceHost(options));

// `run` appends its Markdown summary to $GITHUB_STEP_SUMMARY (README "Reports"); the runs the
// tests make are not a CI job's summary.
delete process.env.GITHUB_STEP_SUMMARY;
