// The relative links of the project's Markdown documents, read as GitHub reads them: shared by
// test/doc-links.test.ts (the checkout) and test/action.test.ts (the package as installed).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The text without fenced code blocks, HTML comments and code spans: links there are not links. */
export function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** The target of every inline link and image of a Markdown text. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub gives the headings of a Markdown text: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
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

/** A relative link of `file` (a path from the root), as the path from the root it names and its anchor, if any. */
export interface RelativeLink {
  target: string;
  path: string;
  anchor: string | undefined;
}

/** Every relative link of `file` (a path from `root`, `text` its content); links with a scheme are left out. */
export function relativeLinks(root: string, file: string, text: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const hash = target.indexOf('#');
    const path = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), decodeURIComponent(path));
    links.push({ target, path: relative(root, resolved).split('\\').join('/'), anchor });
  }
  return links;
}

/** Each link of `file` (a path from `root`) that names no file, or no heading of a Markdown file. */
export function brokenLinks(root: string, file: string, text: string): string[] {
  const problems: string[] = [];
  for (const { target, path, anchor } of relativeLinks(root, file, text)) {
    const resolved = join(root, path);
    if (!existsSync(resolved)) {
      problems.push(`${file}: ${target}: no file ${path}`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) problems.push(`${file}: ${target}: no heading #${anchor} in ${path}`);
  }
  return problems;
}
