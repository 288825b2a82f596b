// The kill matrix's second shard of known-bad hosts (test/support/kill-matrix-hosts.ts); the
// first shard, the schema mutants and the coverage checks are in test/kill-matrix.test.ts.

import { describeKnownBadHosts } from './support/kill-matrix-hosts.ts';

await describeKnownBadHosts(1);
