// The documents link one another by relative paths; this keeps the split from rotting. Every
// relative Markdown link (and image) in the README, docs/, CONTRIBUTING.md, CONTRACT.md,
// requirements/README.md and hosts/known-bad/README.md must name a file that exists, and a
// `#anchor` into a Markdown file must name one of its headings, as GitHub spells a heading's anchor.
// And a document the package ships (package.json `files`) links only to files it ships: a user
// reads it in node_modules, where the source repository's other files are not; it names those
// (in a code span, "in the source repository") instead. The package as installed is held to the
// same in test/action.test.ts.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, linkTargets, relativeLinks } from './support/markdown-links.ts';

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

const { files } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

/** Whether `npm pack` ships `path` (from the root): named by package.json `files` (a folder with its trailing slash), or package.json itself. */
function shipped(path: string, entries: readonly string[] = files): boolean {
  return path === 'package.json' || entries.some((entry) => (entry.endsWith('/') ? path === entry.slice(0, -1) || path.startsWith(entry) : path === entry));
}

/** The Markdown documents the package ships: every .md file under a `files` entry that exists here (dist/ holds none). */
const SHIPPED_DOCUMENTS = files
  .flatMap((entry) =>
    !existsSync(join(ROOT, entry))
      ? []
      : entry.endsWith('/')
        ? readdirSync(join(ROOT, entry), { recursive: true, encoding: 'utf8' }).map((name) => `${entry}${name.split('\\').join('/')}`)
        : [entry],
  )
  .filter((path) => path.endsWith('.md'));

/** Each relative link of `file` (a path from the root) whose target the package does not ship. */
function unshippedLinks(file: string, text: string, entries: readonly string[] = files): string[] {
  return relativeLinks(ROOT, file, text)
    .filter((link) => !shipped(link.path, entries))
    .map((link) => `${file}: ${link.target}: ${link.path} is not shipped`);
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

  it('links the README to every document of a reader it ships, and names the others as in the source repository', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const targets = new Set(linkTargets(readme).map((target) => target.split('#')[0]));
    for (const doc of [
      'docs/certifying.md',
      'docs/auditing.md',
      'docs/cli.md',
      'docs/architecture.md',
      'requirements/README.md',
      'docs/wire.md',
      'docs/openwop-cli.md',
    ])
      expect(targets.has(doc), doc).toBe(true);
    for (const doc of ['hosts/known-bad/README.md', 'CONTRIBUTING.md']) {
      expect(shipped(doc), doc).toBe(false);
      expect(readme, doc).toContain(`| \`${doc}\` (source repository) |`);
    }
  });

  it('finds the documents the package ships', () => {
    expect(
      files.filter((entry) => /[*?[\]!]/.test(entry)),
      'package.json files: a glob would need npm-packlist to read',
    ).toEqual([]);
    expect(SHIPPED_DOCUMENTS).toEqual(
      expect.arrayContaining(['README.md', 'CONTRACT.md', 'docs/certifying.md', 'docs/auditing.md', 'docs/architecture.md', 'requirements/README.md']),
    );
    expect(SHIPPED_DOCUMENTS).not.toContain('CONTRIBUTING.md');
  });

  for (const file of SHIPPED_DOCUMENTS) {
    it(`links ${file}, which the package ships, only to files it ships`, () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(unshippedLinks(file, text), 'ship the file, or name it (in a code span) as in the source repository').toEqual([]);
    });
  }

  it('reports a link from a shipped document to a file the package does not ship', () => {
    const text =
      '[ok](cli.md#exit-codes) [up](../CONTRACT.md) [data](../requirements/profiles.json) [dir](../fixtures/) [web](https://openwop.dev) ' +
      '[gone](../CONTRIBUTING.md#the-browser-test-and-the-screenshot) [source](../lib/archive/replay.ts) `[code](../bench/RESULTS.md)`';
    expect(unshippedLinks('docs/auditing.md', text, ['docs/', 'requirements/', 'fixtures/', 'CONTRACT.md'])).toEqual([
      'docs/auditing.md: ../CONTRIBUTING.md#the-browser-test-and-the-screenshot: CONTRIBUTING.md is not shipped',
      'docs/auditing.md: ../lib/archive/replay.ts: lib/archive/replay.ts is not shipped',
    ]);
    expect(unshippedLinks('README.md', '[x](docs) [y](docsx/a.md) [z](package.json)', ['docs/'])).toEqual(['README.md: docsx/a.md: docsx/a.md is not shipped']);
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
