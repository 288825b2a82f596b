// The third part of `npm run build` (after tsc and scripts/precompile-schemas.ts): the built
// command and the embedded host's thread, each as one CommonJS script in dist/bundle/, with V8's
// code cache of a certification beside it. bin/ runs them through bin/bundle-loader.cjs: one file
// read and, from the cache, almost nothing compiled, where the modules of dist/ cost a module
// resolution, a file read and a compile each (bench/RESULTS.md "npm start (branch start3)").
//
// What the bundles hold is dist/ as tsc wrote it, each module's `import.meta.url` kept as the URL
// of its own file in dist/, so every path a module finds from its own place (the package's
// folder, the precompiled schemas, undici's modules) is the one it finds unbundled. Two modules
// are left out of the command's bundle and bundled apart, as bin/ loads them before the command
// and both must be the same instance: the early discovery (lib/client/early-discovery.ts) and the
// host's early thread (commands/support/host-thread.ts). node-sqlite3-wasm stays in node_modules,
// as it reads its WebAssembly from its own folder.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { packagePath } from '../lib/package-root.ts';

const DIST = packagePath('dist/');
const OUT = packagePath('dist/bundle/');

/** The modules bin/ loads before the command, bundled apart: dist/ path → the bundle's file name. */
const SHARED: Record<string, string> = {
  'lib/client/early-discovery.js': 'early-discovery.cjs',
  'commands/support/host-thread.js': 'host-thread.cjs',
};

/**
 * Modules dist/ requires at run time through `createRequire`, which esbuild does not follow: the
 * calls named here become `require`s of the bundle, so that their code is in the bundle and its
 * code cache too. A module's substitutions apply together or not at all: one that no longer
 * matches is said by the build and leaves that module's requires to run time, as unbundled.
 */
const BUNDLED_REQUIRES: Readonly<Record<string, ReadonlyArray<readonly [from: string, to: string]>>> = {
  // lib/client/http.ts: the two modules of undici the client uses.
  'lib/client/http.js': [
    ["requireUndici('undici/lib/dispatcher/agent.js')", "require('undici/lib/dispatcher/agent.js')"],
    ["requireUndici('undici/lib/api/api-request.js')", "require('undici/lib/api/api-request.js')"],
  ],
  // lib/schemas/index.ts: the schemas precompiled by the build (scripts/precompile-schemas.ts).
  'lib/schemas/index.js': [
    [
      "const PRECOMPILED_FILE = './precompiled.cjs';",
      "const PRECOMPILED_FILE = './precompiled.cjs';\nimport * as __precompiledSchemas from './precompiled.cjs';",
    ],
    ['return require(PRECOMPILED_FILE);', 'return __precompiledSchemas;'],
  ],
};

/** `text` of dist/`module` with its bundled requires, when every one of them matches. */
function withBundledRequires(module: string, text: string): string {
  const substitutions = BUNDLED_REQUIRES[module] ?? [];
  const missing = substitutions.find(([from]) => !text.includes(from));
  if (missing !== undefined) {
    process.stderr.write(`scripts/bundle.ts: dist/${module} no longer reads ${missing[0]}: its modules are left to be required at run time\n`);
    return text;
  }
  return substitutions.reduce((changed, [from, to]) => changed.replace(from, to), text);
}

/** The longest the warm-up certification may take before the build goes on without its cache. */
const WARM_UP_BOUND_MS = 180_000;

/** dist/ as tsc wrote it, each module's `import.meta.url` its own file's URL; the shared modules left to their own bundles. */
function distPlugin(entry: string): Plugin {
  return {
    name: 'dist',
    setup(builder) {
      builder.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const path = join(args.resolveDir, args.path);
        const shared = SHARED[relative(DIST, path)];
        return shared === undefined || path === entry ? undefined : { path: `./${shared}`, external: true };
      });
      builder.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
        const module = relative(DIST, args.path).split('\\').join('/');
        const own = JSON.stringify(relative(OUT, args.path).split('\\').join('/'));
        const text = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `__moduleUrl(${own})`);
        // Any other member of import.meta would be undefined in a CommonJS bundle: refused, not guessed.
        if (text.includes('import.meta'))
          throw new Error(`dist/${module} reads import.meta beyond its url, which scripts/bundle.ts does not carry into the bundle`);
        return { contents: withBundledRequires(module, text), loader: 'js' };
      });
    },
  };
}

/** Bundles `entry` (under dist/) into dist/bundle/`name`, its first line the build's id: the SHA-256 of the rest. */
async function bundle(entry: string, name: string): Promise<void> {
  const path = packagePath(`dist/${entry}`);
  const result = await build({
    entryPoints: [path],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    outfile: join(OUT, name),
    external: ['node-sqlite3-wasm'],
    plugins: [distPlugin(path)],
    // Strict as the modules were (ESM is); esbuild's own directive would come after this banner.
    banner: { js: "'use strict';\nconst __moduleUrl = (own) => require('node:url').pathToFileURL(require('node:path').join(__dirname, own)).href;" },
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  const { text } = output;
  writeFileSync(join(OUT, name), `// build ${createHash('sha256').update(text).digest('hex')}\n${text}`);
}

/**
 * Runs one certification of the embedded host from the bundles, which then write the code V8
 * compiled for each (bin/bundle-loader.cjs). Its outputs and its development key go to a
 * temporary folder; a run that fails or overruns leaves the bundles without a cache, which costs
 * only the compile.
 */
function warmUp(): void {
  const dir = mkdtempSync(join(tmpdir(), 'owec-warm-up-'));
  try {
    const run = spawnSync(
      process.execPath,
      [packagePath('bin/openwop-eval-conformance.mjs'), 'run', '--certify', join(dir, 'bundle.json'), '--archive', join(dir, 'archive.har.gz')],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: WARM_UP_BOUND_MS,
        env: { PATH: process.env.PATH, OPENWOP_WRITE_CODE_CACHE: '1', OPENWOP_DEV_KEY_DIR: join(dir, 'keys') },
      },
    );
    if (run.error !== undefined || run.status === null)
      process.stderr.write(`the warm-up certification did not end (${run.error?.message ?? run.signal}): the bundles have no code cache\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(OUT, { recursive: true });
await Promise.all([
  bundle('commands/cli.js', 'command.cjs'),
  bundle('commands/support/reference-host-worker.js', 'reference-host.cjs'),
  ...Object.entries(SHARED).map(([entry, name]) => bundle(entry, name)),
]);
// The host's thread starts from a file (node:worker_threads), which runs its bundle through the loader.
writeFileSync(
  join(OUT, 'reference-host-worker.cjs'),
  "require('../../bin/bundle-loader.cjs').loadBundle(require('node:path').join(__dirname, 'reference-host.cjs'));\n",
);
warmUp();
const sizes = ['command.cjs', 'reference-host.cjs'].map((name) => {
  const cache = join(OUT, `${name}.cache`);
  return `${name} ${readFileSync(join(OUT, name)).length} bytes, its code cache ${existsSync(cache) ? `${readFileSync(cache).length} bytes` : 'none'}`;
});
process.stdout.write(`wrote ${OUT}: ${sizes.join('; ')}\n`);
