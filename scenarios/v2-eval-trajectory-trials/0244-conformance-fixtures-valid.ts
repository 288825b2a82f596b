// v2-eval-trajectory-trials/0244-conformance-fixtures-valid — RFC 0244 §Conformance: the harness's own eval-suite fixtures (server-free).
//
// Legs:
//   1. openwop.requirement.0244.fixtures-valid   (§Conformance) every eval-suite fixture of this harness validates.
// Gate: each leg's `needs`, as the runner reads them (lib/ledger/gates.ts); the fixtures it names.
// Server-free, always on.

import { loadFixtureFiles, loadFixtures } from '../../lib/fixtures.ts';
import { defineScenario } from '../../lib/ledger/scenario.ts';
import { accepts } from '../support/shape.ts';

export default defineScenario('v2-eval-trajectory-trials/0244-conformance-fixtures-valid.ts', [
  {
    id: 'openwop.requirement.0244.fixtures-valid',
    title: "every eval-suite fixture validates, its id is its file name, and its tasks' scripts validate",
    clause: 'RFC 0244 §Conformance',
    serverFree: true,
    run(check) {
      const files = loadFixtureFiles();
      check.ok(files.size > 0, 'fixtures/eval-suites holds fixtures');
      for (const [name, doc] of files) {
        accepts(check, 'eval-suite-fixture', doc, `fixture ${name}.json`);
        accepts(check, 'suite-with-rules', doc.suite, `the suite of ${name}.json under the suite rules`);
        for (const task of doc.suite.tasks ?? []) {
          accepts(check, 'scripted-agent-input', task.input, `the script of ${name}.json/${task.taskId}`);
        }
        // CONTRACT §1: a fixture's id is its file name without .json (what discovery lists).
        check.equal(doc.id, name, `fixture file ${name}.json carries its file name as its id`);
      }
      check.equal(loadFixtures().size, files.size, 'no two fixture files carry the same id');
    },
  },
]);
