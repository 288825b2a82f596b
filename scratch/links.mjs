// Checks every relative link (and anchor) of the Markdown documents.
import { readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, resolve, relative } from 'node:path';
import { execSync } from 'node:child_process';
const root = process.argv[2] ?? '.';
const files = execSync('git ls-files "*.md"', { cwd: root }).toString().trim().split('\n').filter((f) => !f.startsWith('scratch/'));
const slug = (t) => t.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const anchors = new Map();
function anchorsOf(file) {
  if (anchors.has(file)) return anchors.get(file);
  const set = new Set(); const seen = new Map();
  let fence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (m) { let s = slug(m[1]); const n = seen.get(s) ?? 0; seen.set(s, n + 1); set.add(n ? `${s}-${n}` : s); }
    for (const a of line.matchAll(/<a (?:name|id)="([^"]+)"/g)) set.add(a[1]);
  }
  anchors.set(file, set); return set;
}
let bad = 0;
for (const f of files) {
  const abs = resolve(root, f); const text = readFileSync(abs, 'utf8');
  let fence = false; let ln = 0;
  for (const line of text.split('\n')) {
    ln++;
    if (/^\s*```/.test(line)) fence = !fence;
    if (fence) continue;
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const href = m[1];
      if (/^(https?|mailto):/.test(href)) continue;
      const [p, frag] = href.split('#');
      const target = p === '' ? abs : resolve(dirname(abs), decodeURI(p));
      if (!existsSync(target)) { console.log(`${f}:${ln}: missing ${href}`); bad++; continue; }
      if (frag !== undefined && target.endsWith('.md') && !anchorsOf(target).has(frag)) { console.log(`${f}:${ln}: no anchor ${href}`); bad++; }
    }
  }
}
console.log(`${bad} bad link(s) in ${files.length} files`);
