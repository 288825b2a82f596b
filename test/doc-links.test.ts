// The documents link one another by relative paths; this keeps the split from rotting. Every
// relative Markdown link (and image) in the README, docs/, CONTRIBUTING.md, CONTRACT.md,
// requirements/README.md and hosts/known-bad/README.md must name a file that exists, and a
// `#anchor` into a Markdown file must name one of its headings, as GitHub spells a heading's anchor.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'CONTRACT.md',
  'requirements/README.md',
  'hosts/known-bad/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text without fenced code blocks, HTML comments and code spans: links there are not links. */
function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** The target of every inline link and image of a Markdown text. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives the headings of a Markdown text: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of withoutCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Each link of `file` (a path from `root`) that names no file, or no heading of a Markdown file. */
function brokenLinks(root: string, file: string, text: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const hash = target.indexOf('#');
    const path = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path));
    const shown = relative(root, resolved);
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${target}: no file ${shown}`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) problems.push(`${file}: ${target}: no heading #${anchor} in ${shown}`);
  }
  return problems;
}

describe('the links between the documents', () => {
  it('finds the documents', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['docs/certifying.md', 'docs/auditing.md', 'docs/cli.md', 'docs/architecture.md']));
    for (const file of DOCUMENTS) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  for (const file of DOCUMENTS) {
    it(`resolves every relative link of ${file}, to a file and to a heading`, () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(brokenLinks(ROOT, file, text), 'fix the link, or the heading it names').toEqual([]);
    });
  }

  it('links the README to every document of a reader', () => {
    const targets = new Set(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((target) => target.split('#')[0]));
    for (const doc of [
      'docs/certifying.md',
      'docs/auditing.md',
      'docs/cli.md',
      'docs/architecture.md',
      'requirements/README.md',
      'hosts/known-bad/README.md',
      'CONTRIBUTING.md',
      'docs/wire.md',
      'docs/openwop-cli.md',
    ])
      expect(targets.has(doc), doc).toBe(true);
  });

  it('spells anchors as GitHub does, and reports a missing file and a missing heading', () => {
    expect([...headingAnchors('# A `run` flag: the --seed\n## Certify your host in CI\n## Notes\n## Notes\n```sh\n# not a heading\n```\n')]).toEqual([
      'a-run-flag-the---seed',
      'certify-your-host-in-ci',
      'notes',
      'notes-1',
    ]);
    const text = '[ok](README.md#exit-codes) [gone](docs/nowhere.md) [bad](README.md#no-such-heading) [web](https://openwop.dev) `[code](x.md)`';
    expect(brokenLinks(ROOT, 'CONTRIBUTING.md', text)).toEqual([
      'CONTRIBUTING.md: docs/nowhere.md: no file docs/nowhere.md',
      'CONTRIBUTING.md: README.md#no-such-heading: no heading #no-such-heading in README.md',
    ]);
  });
});
