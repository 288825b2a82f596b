# Scratch: phase marks (stderr, `@mark NAME EPOCH_MS`, only under PHASE_MARKS=1) patched into a tree
# by anchors, for scratch/phase-table.sh; never committed. Run from the tree's root.
import sys
M = "(process.env.PHASE_MARKS && process.stderr.write(`@mark %s ${(performance.timeOrigin + performance.now()).toFixed(1)} ${(Number(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6).toFixed(1)}\\n`));"
M0 = "(process.env.PHASE_MARKS && process.stderr.write(`@mark %s ${(performance.timeOrigin + performance.now()).toFixed(1)}\\n`));"
def patch(path, pairs):
    s = open(path).read()
    for a, b in pairs:
        if a not in s: print('anchor missing', path, a[:60]); continue
        s = s.replace(a, b, 1)
    open(path, 'w').write(s)
patch('lib/ledger/runner.ts', [
    ("  // 2. Compare: every", "  " + M % 'legs-done' + "\n  // 2. Compare: every"),
    ("  // 3. Check every exchange", "  " + M % 'compared' + "\n  // 3. Check every exchange"),
    ("  // 4. Record:", "  " + M % 'exchanges-checked' + "\n  // 4. Record:"),
])
patch('commands/run.ts', [
    ("  const { target } = outcome;\n", "  const { target } = outcome;\n" + M % 'certified' + "\n"),
    ("  io.err(`certification seed", M % 'encoded' + "\n  io.err(`certification seed"),
    ("  const hostBuild = settings.hostBuild ??", M % 'printed' + "\n  const hostBuild = settings.hostBuild ??"),
    ("  const cut =\n", M % 'bundle' + "\n  const cut =\n"),
    ("  const archived = encoded === undefined ? undefined : await writeArchive({ encoded, signed, io });\n", "  const archived = encoded === undefined ? undefined : await writeArchive({ encoded, signed, io });\n" + M % 'archive' + "\n"),
    ("  const about = {\n", M % 'certificate' + "\n  const about = {\n"),
    ("  const decided = { rows,", M % 'reports' + "\n  const decided = { rows,"),
    ("  const started = await startEmbedded(", M % 'host-asked' + "\n  const started = await startEmbedded("),
])
patch('lib/archive/write.ts', [
    ("  const text = archiveText(recorder.har(settings, roles, redactor));\n", "  const harValue = recorder.har(settings, roles, redactor);\n" + M % 'har-value' + "\n  const text = archiveText(harValue);\n" + M % 'har-text' + "\n"),
    ("  if (redactor.text(text) !== text) return { ok: false };\n", M % 'har-check-start' + "\n  if (redactor.text(text) !== text) return { ok: false };\n" + M % 'har-checked' + "\n"),
    ("  const bytes = await encoded.bytes;\n", "  " + M % 'gzip-wait' + "\n  const bytes = await encoded.bytes;\n  " + M % 'gzip-got' + "\n"),
])
patch('commands/support/reference-host-worker.ts', [
    ("const port = parentPort!;\n", M % 'w-entry' + "\nconst port = parentPort!;\n"),
    ("  try {\n    const host = await startReferenceHost(", "  " + M % 'w-options' + "\n  try {\n    const host = await startReferenceHost("),
    ("    tell({ started:", "    " + M % 'w-listening' + "\n    tell({ started:"),
    ("prepareReferenceHost();\n", "prepareReferenceHost();\n" + M % 'w-prepared' + "\n"),
])
patch('bin/openwop-eval-conformance.mjs', [
    ("const args = process.argv.slice(2);\n", "const args = process.argv.slice(2);\n" + M0 % 'bin-start' + "\n"),
    ("const { main } = await", M0 % 'host-thread-started' + "\nconst { main } = await"),
    ("try {\n  process.exitCode", M0 % 'command-loaded' + "\ntry {\n  process.exitCode"),
    ("  process.exitCode = await main(args);\n", "  process.exitCode = await main(args);\n  " + M0 % 'main-returned' + "\n  process.env.PHASE_MARKS && process.on('exit', () => process.stderr.write(`@mark exit-event ${(performance.timeOrigin + performance.now()).toFixed(1)}\\n`));\n"),
])
tag = "${require('node:worker_threads').isMainThread ? 'm' : 'w'}-"
def mk(n): return "(process.env.PHASE_MARKS && process.stderr.write(`@mark " + tag + n + " ${(performance.timeOrigin + performance.now()).toFixed(1)}\\n`));"
patch('bin/bundle-loader.cjs', [
    ("async function loadBundle(file) {\n", "async function loadBundle(file) {\n  " + mk('load-start') + "\n"),
    ("  const id = BUILD_LINE", "  " + mk('read') + "\n  const id = BUILD_LINE"),
    ("  // The build's warm-up run", "  " + mk('compiled') + "\n  // The build's warm-up run"),
    ("  return module.exports;\n}", "  " + mk('ran') + "\n  return module.exports;\n}"),
])
