// The statements of the three RFC texts (requirements/rfc-statements.json, written from the texts by
// scripts/rfc-statements.ts): every one is mapped to the traceability entries that hold it or said
// to bind no host, and the count is the list's. The texts are not in the repository, so this reads
// only the stored list; the extractor itself is held here on a text of its own.

import { describe, expect, it } from 'vitest';
import { readRfcStatements, statementMapProblems, textCounts } from '../lib/rfc-statement-map.ts';
import { extractStatements } from '../lib/rfc-statements.ts';
import { readTraceability } from '../lib/traceability.ts';

const doc = readRfcStatements();
const entries = readTraceability();

describe('the statements of the RFC texts', () => {
  it('are each held by traceability entries of their RFC, or said to bind no host', () => {
    expect(statementMapProblems(doc, entries)).toEqual([]);
  });

  it('hold their count, from the three texts', () => {
    expect(Object.keys(doc.sources).sort()).toEqual(['0081', '0244', '0252']);
    for (const source of Object.values(doc.sources)) expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.count).toBe(doc.statements.length);
    expect(textCounts(doc).reduce((n, t) => n + t.total, 0)).toBe(doc.count);
    // Every RFC contributes: a text read under a heading the extractor does not know would list none.
    for (const t of textCounts(doc)) expect(t.total - t.notHost, `RFC ${t.rfc}`).toBeGreaterThan(0);
  });

  it('fails a statement with no map, one with both, a trace to no entry or another RFC, and a wrong count', () => {
    const base = { rfc: '0244', clause: '§A', keywords: ['MUST'], opening: 'The host MUST' };
    const bad = {
      ...doc,
      count: 9,
      statements: [
        { ...base, key: '0244.a.00000001' },
        { ...base, key: '0244.a.00000002', traces: ['exact: same length, the i-th observed call matches the i-th expected call'], notHost: 'both' },
        { ...base, key: '0244.a.00000003', traces: ['no such statement'] },
        { ...base, key: '0244.a.00000004', traces: ['a suite is a closed document; suiteId matches the .evals. pattern; passScore is 0..1'] },
      ],
    };
    const problems = statementMapProblems(bad, entries);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/count says 9, the list holds 4/);
    expect(problems[1]).toMatch(/0244\.a\.00000001 .*needs exactly one of traces or notHost/);
    expect(problems[2]).toMatch(/0244\.a\.00000002 .*needs exactly one of traces or notHost/);
    expect(problems[3]).toMatch(/traces "no such statement", which is no traceability statement/);
    expect(problems[4]).toMatch(/a statement of RFC 0081/);
  });
});

describe('the extractor', () => {
  const text = [
    '# RFC 9999: a test text',
    '## Motivation',
    'A host MUST be ignored here.',
    '## Proposal',
    '### §A — One',
    'The host **MUST** do one thing. It also does another. A client MAY ask; the host MUST NOT answer twice.',
    '```jsonc',
    '"x": 1 // MAY; a comment in code',
    '```',
    '| Mode | MUST row |',
    '|---|---|',
    '- A list item SHOULD count',
    '  on two lines.',
    '### Examples',
    'An example MUST be ignored.',
    '## Security',
    '- **Erasure.** A copy SHOULD go with its source.',
    '## Unresolved questions',
    'All were resolved.',
    '1. **First.** Resolved: all.',
    '2. **Second.** Resolved: a host MUST name it.',
    '   - with a sub-point',
    '## References',
    'Nothing MUST be read here.',
  ].join('\n');
  const found = extractStatements('9999', text);

  it('lists each keyword sentence of the Proposal and Security, and each resolved question', () => {
    expect(found.map((s) => [s.clause, s.keywords.join('/'), s.opening])).toEqual([
      ['§A', 'MUST', 'The host MUST do one thing.'],
      ['§A', 'MUST NOT/MAY', 'A client MAY ask; the host'],
      ['§A', 'SHOULD', 'A list item SHOULD count on'],
      ['Security', 'SHOULD', 'A copy SHOULD go with its'],
      ['UQ 1', 'resolved', 'First. Resolved: all.'],
      ['UQ 2', 'MUST', 'Second. Resolved: a host MUST name'],
    ]);
  });

  it('keys a statement by its words: the same sentence the same key, another another', () => {
    const again = extractStatements('9999', text.replace('do one thing', 'do one  thing'));
    expect(again.map((s) => s.key)).toEqual(found.map((s) => s.key));
    const changed = extractStatements('9999', text.replace('do one thing', 'do two things'));
    expect(changed[0]!.key).not.toBe(found[0]!.key);
    expect(changed.slice(1).map((s) => s.key)).toEqual(found.slice(1).map((s) => s.key));
    expect(found[0]!.key).toMatch(/^9999\.a\.[0-9a-f]{8}$/);
  });
});
