// The line `run --filter TEXT` prints before its legs (lib/leg-filter.ts reads the filter): the
// command names its own flag.

import type { LegFilter } from '../../lib/leg-filter.ts';

/** The one line a filtered run prints before its legs: the reading taken and what it kept. */
export function describeFilter(filter: LegFilter, kept: number, total: number): string {
  const reading =
    filter.kind === 'regex'
      ? `read as a regular expression, as the OpenWOP conformance CLI reads it`
      : `not a regular expression (${filter.why}), so matched as plain text`;
  return `--filter ${JSON.stringify(filter.text)}: ${reading}, against each id and title: ${kept} of ${total} requirement ids kept`;
}
