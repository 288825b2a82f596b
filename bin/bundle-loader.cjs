// Runs a bundle of the build (dist/bundle/, scripts/bundle.ts) as Node would run a CommonJS file,
// but compiled from V8's code cache beside it (`FILE.cache`) when that cache was made for this
// very bundle: Node 20 keeps no compile cache of its own, and compiling the command's modules was
// about a tenth of `npm start` (bench/RESULTS.md "npm start (branch start3)"). The build writes the
// cache once, from a certification it runs (scripts/bundle.ts); nothing writes it at run time.
'use strict';

const { renameSync, writeFileSync } = require('node:fs');
const { readFile } = require('node:fs/promises');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

/** The bundle's first line, written by the build: `// build ` and the SHA-256 of the rest. */
const BUILD_LINE = /^\/\/ build ([0-9a-f]{64})\n/;

/**
 * The exports of the bundle `file`. A cache made for another bundle (another build id in its
 * first line) is not offered to V8; one V8 refuses (another Node.js or V8 flags) is compiled
 * afresh, as V8 does by itself: either way the script runs from its own text. The files are read
 * asynchronously and the script runs a turn after it is compiled, so that a request already
 * started (bin/'s early discovery) goes out meanwhile instead of after the whole load.
 */
async function loadBundle(file) {
  const [source, cache] = await Promise.all([readFile(file, 'utf8'), readFile(`${file}.cache`).catch(() => undefined)]);
  const id = BUILD_LINE.exec(source)?.[1];
  const made = id !== undefined && cache?.subarray(0, 65).toString('latin1') === `${id}\n`;
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData: made ? cache.subarray(65) : undefined,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // The build's warm-up run (scripts/bundle.ts) asks for the cache of what it compiled, at its exit.
  if (id !== undefined && process.env.OPENWOP_WRITE_CODE_CACHE === '1') process.once('exit', () => writeCache(file, id, script));
  await new Promise((resolve) => setImmediate(resolve));
  const module = { exports: {}, filename: file, id: file };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** Writes the code V8 compiled for the bundle so far, whole or not at all (a rename). */
function writeCache(file, id, script) {
  const part = `${file}.cache.${process.pid}.${require('node:worker_threads').threadId}`;
  writeFileSync(part, Buffer.concat([Buffer.from(`${id}\n`, 'latin1'), script.createCachedData()]));
  renameSync(part, `${file}.cache`);
}

module.exports = { loadBundle };
