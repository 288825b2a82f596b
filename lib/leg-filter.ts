// `run --filter TEXT`: which requirement ids a run keeps. The OpenWOP conformance CLI hands its
// `--filter` to vitest's `--testNamePattern`, a regular expression (docs/openwop-cli.md), so a
// text that compiles as one is read as one, unanchored and case-sensitive, against each leg's id
// and title; a text that does not compile (`0244[`) is matched as plain text. Either way the run
// says which reading it took and how many ids it kept, so a filter is never silently wider or
// narrower than its author meant.

export type LegFilter = { kind: 'regex'; text: string; pattern: RegExp } | { kind: 'text'; text: string; why: string };

export function readFilter(text: string): LegFilter {
  try {
    return { kind: 'regex', text, pattern: new RegExp(text) };
  } catch (error) {
    return { kind: 'text', text, why: (error as Error).message };
  }
}

/** Whether the leg's id or title matches the filter. */
export function filterKeeps(filter: LegFilter, leg: { id: string; title: string }): boolean {
  if (filter.kind === 'text') return leg.id.includes(filter.text) || leg.title.includes(filter.text);
  return filter.pattern.test(leg.id) || filter.pattern.test(leg.title);
}
