// The normative statements of the three RFC texts, counted mechanically (requirements/README.md,
// "How the statements are counted"): in each RFC's Proposal (every §) and its Security section,
// every sentence that carries an RFC 2119 keyword in capitals (MUST, MUST NOT, SHOULD, SHOULD NOT,
// MAY, REQUIRED, RECOMMENDED, SHALL) is one statement; each resolved Unresolved question is one
// statement, keyword or not (its answer is adopted text, `resolved` where it carries none). Each
// is named by its clause, its keywords and a key hashed from its words. Code blocks, tables,
// and the sections that bind nothing (Summary, Motivation, Compatibility, Conformance,
// Alternatives, Implementation notes, Acceptance criteria, Amendment record, References) are not
// read. scripts/rfc-statements.ts runs this over the texts and writes
// requirements/rfc-statements.json, where each statement is mapped by hand to the traceability
// entries that hold it, or said not to bind the host; test/rfc-statements.test.ts holds the map.

import { createHash } from 'node:crypto';

export const KEYWORDS = ['MUST NOT', 'MUST', 'SHOULD NOT', 'SHOULD', 'MAY', 'REQUIRED', 'RECOMMENDED', 'SHALL'] as const;

/** One keyword sentence of an RFC text. */
export interface ExtractedStatement {
  /** `<rfc>.<clause slug>.<8 hex of sha256 of the sentence's words>`. */
  key: string;
  rfc: string;
  clause: string;
  keywords: string[];
  /** The sentence's first words, to find it in the text (never the whole sentence). */
  opening: string;
}

/** Sections whose sentences bind nothing (RFC 0081 and RFC 0244 use the same headings). */
const READ_SECTIONS = /^(Proposal|Security|Unresolved questions)\b/i;

/** The clause a line stands under: `§A` from `### §A — …`, `UQ 3` inside a numbered UQ item, `Security`. */
function clauseOf(heading: string): string | undefined {
  const section = heading.match(/§([A-H])\b/);
  if (section) return `§${section[1]}`;
  if (/^Security\b/i.test(heading)) return 'Security';
  return undefined;
}

/** Markdown emphasis and code spans reduced to their words. */
function plain(text: string): string {
  return text
    .replace(/\*\*|__/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sentences of a paragraph: split after `.`, `;`-free, before a capital, a backtick or a parenthesis. */
function sentences(paragraph: string): string[] {
  return plain(paragraph)
    .split(/(?<=[.!?])\s+(?=[A-Z(`"*])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function keywordsOf(sentence: string): string[] {
  const found: string[] = [];
  let rest = sentence;
  for (const keyword of KEYWORDS) {
    const pattern = new RegExp(`\\b${keyword}\\b`, 'g');
    if (pattern.test(rest)) {
      found.push(keyword);
      rest = rest.replace(pattern, ' ');
    }
  }
  return found;
}

function slug(clause: string): string {
  return clause
    .toLowerCase()
    .replace(/§/g, '')
    .replace(/[^a-z0-9]+/g, '-');
}

/** Every keyword sentence of one RFC's text, in text order. */
export function extractStatements(rfc: string, text: string): ExtractedStatement[] {
  const out: ExtractedStatement[] = [];
  let reading = false;
  let clause: string | undefined;
  let inCode = false;
  let inUq = false;
  let paragraph: string[] = [];
  const flush = () => {
    const body = paragraph.join(' ');
    paragraph = [];
    if (!reading || clause === undefined || body.trim() === '') return;
    if (inUq) {
      // A resolved question is one statement, its answer adopted whether or not it carries a keyword.
      const item = plain(body);
      const keywords = keywordsOf(item);
      const words = item
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
      const hash = createHash('sha256').update(words).digest('hex').slice(0, 8);
      out.push({
        key: `${rfc}.${slug(clause)}.${hash}`,
        rfc,
        clause,
        keywords: keywords.length > 0 ? keywords : ['resolved'],
        opening: item.split(' ').slice(0, 6).join(' '),
      });
      return;
    }
    for (const sentence of sentences(body)) {
      const keywords = keywordsOf(sentence);
      if (keywords.length === 0) continue;
      const words = sentence
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
      const hash = createHash('sha256').update(words).digest('hex').slice(0, 8);
      out.push({ key: `${rfc}.${slug(clause)}.${hash}`, rfc, clause, keywords, opening: sentence.split(' ').slice(0, 6).join(' ') });
    }
  };
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      flush();
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    const heading = line.match(/^(#{2,4})\s+(.*)$/);
    if (heading) {
      flush();
      const [, hashes, title] = heading as unknown as [string, string, string];
      if (hashes.length === 2) {
        reading = READ_SECTIONS.test(title);
        inUq = /^Unresolved questions/i.test(title);
        clause = /^Security/i.test(title) ? 'Security' : undefined;
      } else if (reading && !inUq) clause = clauseOf(title) ?? (/^(Examples|Wire shape)/i.test(title) ? undefined : clause);
      continue;
    }
    if (!reading) continue;
    if (/^\s*\|/.test(line)) {
      flush();
      continue; // tables: example rows and mode definitions, read in their clause's prose
    }
    const uq = inUq ? line.match(/^(\d+)\.\s/) : null;
    if (uq) {
      flush();
      clause = `UQ ${uq[1]}`;
    } else if (inUq && /^\S/.test(line) && line.trim() !== '') {
      flush();
      clause = undefined; // the section's preamble, or the prose after its list
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A list item is a paragraph of its own (a resolved question keeps its continuation lines).
    if (/^\s*[-*]\s|^\s*\d+\.\s/.test(line) && !(inUq && /^\s+[-*]\s/.test(line))) flush();
    paragraph.push(line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''));
  }
  flush();
  return out;
}
