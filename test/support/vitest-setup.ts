// Installs, in every vitest worker, what lib/ stays free of: the embedded reference host the
// scenario adapter (scenarios/index.test.ts, commands/vitest.ts) certifies when
// OPENWOP_BASE_URL is unset.

import { setEmbeddedHostFactory } from '../../commands/vitest.ts';

// Imported on first use: most test files never start it through the adapter.
setEmbeddedHostFactory(async (options) => (await import('../../hosts/reference/server.ts')).startReferenceHost(options));

// `run` appends its Markdown summary to $GITHUB_STEP_SUMMARY (docs/certifying.md "Reports"); the runs the
// tests make are not a CI job's summary.
delete process.env.GITHUB_STEP_SUMMARY;
