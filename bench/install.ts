// `npm ci` as a newcomer runs it: a fresh clone, an empty npm cache (`npm ci --cache <new folder>`),
// so every package comes from the registry; wall time, the native addons it built (a `.node` file
// under a package's `build/`: what a compile leaves), and, apart, `npm run build` alone, which
// `npm ci` runs through `prepare`. Measured at HEAD and at BEFORE, the last commit whose embedded
// host stored its runs through better-sqlite3 (a native addon, compiled from source wherever its
// prebuilt binary, fetched from outside the npm registry, cannot be had), with the load average.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './grader.ts';

/** The commit before the store moved to WebAssembly (hosts/reference/sqlite-file.ts). */
const BEFORE = 'e2b9d71';
const REPO = fileURLToPath(new URL('..', import.meta.url));

function run(command: string, args: string[], cwd: string): number {
  const started = performance.now();
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 1_800_000 });
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${String(child.status)}: ${(child.stdout + child.stderr).slice(-800)}`);
  return (performance.now() - started) / 1000;
}

/** The `.node` files under a `build/` folder of node_modules: addons compiled at install. */
function builtAddons(dir: string): string[] {
  return (readdirSync(join(dir, 'node_modules'), { recursive: true }) as string[]).filter(
    (path) => path.endsWith('.node') && path.split(/[\\/]/).includes('build'),
  );
}

function measure(commit: string): { install: number; build: number; addons: string[]; load: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-install-'));
  try {
    run('git', ['clone', '--quiet', '--no-checkout', REPO, dir], REPO);
    run('git', ['checkout', '--quiet', commit], dir);
    const before = loadavg()[0]!.toFixed(1);
    const install = run('npm', ['ci', '--no-audit', '--no-fund', '--cache', join(dir, '.npm-cache')], dir);
    const load = `load average ${before} before, ${loadavg()[0]!.toFixed(1)} after`;
    const addons = builtAddons(dir);
    const build = run('npm', ['run', 'build'], dir);
    return { install, build, addons, load };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchInstall(): Promise<BenchResult[]> {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim();
  return [BEFORE, head].map((commit) => {
    const m = measure(commit);
    const compiled = m.addons.length === 0 ? 'no native addon built' : `native addons built: ${m.addons.join(', ')}`;
    return {
      name: `\`npm ci --cache <empty folder>\` in a fresh clone at ${commit}${commit === BEFORE ? ' (the store on better-sqlite3)' : ' (the store on node-sqlite3-wasm)'}, \`prepare\` included; ${m.load}, 2 CPUs shared`,
      figure: `${m.install.toFixed(1)} s wall; ${compiled}; \`npm run build\` alone ${m.build.toFixed(1)} s`,
      target: commit === BEFORE ? 'recorded, no target' : 'no native addon built',
      ok: commit === BEFORE || m.addons.length === 0,
    };
  });
}
