// The files a run writes, checked before it starts (README "Exit codes"): no two outputs on one
// file and none on a file the run reads, then each one writable.

import { bindingPath } from '../../lib/evidence/archive.ts';
import { certificatePath } from '../../lib/evidence/eval-certificate.ts';
import { archivePathOf } from '../../lib/archive/write.ts';
import { prepareOutputs, sameFileProblem } from '../../lib/io.ts';
import { given, type RunOptions } from './run-settings.ts';

/** The first problem with the run's output files, in one line, or undefined when every one can be written. */
export function outputFilesProblem(options: RunOptions): string | undefined {
  const outputs = [
    ['--report-json', options.reportJson],
    ['--junit', options.junit],
    ['--html', options.html],
    ['--summary', options.summary],
    ['--otel', options.otel],
    ['--certify', options.certify],
    ['--archive', archivePathOf(options)],
  ] as const;
  // With --certify, the eval certificate and the archive's binding are written beside them too.
  const certified =
    options.certify === undefined
      ? []
      : ([
          ["--certify's eval certificate", certificatePath(options.certify)],
          ["--archive's binding", bindingPath(archivePathOf(options)!)],
        ] as const);
  const inputs = [
    ['--expected-failures', options.expectedFailures],
    ['--suite', options.suite],
    ['--baseline-suite', options.baselineSuite],
    ['--signing-key', given(options.signingKey, 'OPENWOP_BUNDLE_SIGNING_KEY')],
  ] as const;
  return sameFileProblem([...outputs, ...certified], inputs) ?? prepareOutputs(outputs);
}
