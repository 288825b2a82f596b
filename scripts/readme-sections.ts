// Generated sections of the documents: the text between a start and an end marker, written by a
// script of scripts/ from data and held to it by a test (the traceability and eval-profile tables
// of requirements/README.md, the kill matrix of hosts/known-bad/README.md, CONTRACT §7, the
// README's verify sample). CONTRIBUTING.md lists each with its script and test.

export const TRACEABILITY_START =
  '<!-- traceability:start — generated from requirements/traceability.json by `npx tsx scripts/traceability-readme.ts`; do not edit by hand -->';
export const TRACEABILITY_END = '<!-- traceability:end -->';

/** The text between two markers, or undefined when the document lacks them. */
export function markedSection(readme: string, startMarker: string, endMarker: string): string | undefined {
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start === -1 || end === -1 || end < start) return undefined;
  return readme
    .slice(start + startMarker.length, end)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** The document with the text between two markers replaced by `section`. */
export function withMarkedSection(readme: string, startMarker: string, endMarker: string, section: string): string {
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start === -1 || end === -1 || end < start) throw new Error(`the document has no markers ${startMarker} … ${endMarker}`);
  return `${readme.slice(0, start + startMarker.length)}\n${section}\n${readme.slice(end)}`;
}

export const PROFILES_START =
  '<!-- profiles:start — generated from requirements/profiles.json by `npx tsx scripts/profiles-readme.ts`; do not edit by hand -->';
export const PROFILES_END = '<!-- profiles:end -->';
