// `npm test`: the type check (`tsc --noEmit`) and Biome's format and lint check (`biome ci .`)
// beside the tests (`vitest run`), not before them: tsc keeps one core for its seconds, and on a
// 2-core machine the tests fill the other (bench/RESULTS.md "npm test structure (branch suite4)").
// The tests print as they run; the two checks' output is kept and printed once each ends, after
// the tests' own output when they pass, and at once when they fail, which stops the tests: a
// failing check ends `npm test` as it did when the three ran one after another. The exit status
// is the first failure's, or 0.

import { spawn } from 'node:child_process';

const windows = process.platform === 'win32';

/** Runs `command` (node_modules/.bin is on npm's PATH); its output kept, or passed through. */
function start(command, args, keep) {
  const child = spawn(command, args, { stdio: ['ignore', keep ? 'pipe' : 'inherit', keep ? 'pipe' : 'inherit'], shell: windows });
  let output = '';
  if (keep) {
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  }
  const ended = new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
    child.on('close', (status, signal) => resolve({ status: status ?? (signal === null ? 1 : 128), output }));
  });
  return { child, ended, name: [command, ...args].join(' ') };
}

// What follows `npm test --` goes to vitest, as it did when vitest ran last in the script.
const tests = start('vitest', ['run', ...process.argv.slice(2)], false);
const checks = [start('tsc', ['--noEmit'], true), start('biome', ['ci', '.'], true)];

let failed = 0;
for (const check of checks) {
  void check.ended.then(({ status, output }) => {
    if (status === 0) return;
    if (failed === 0) failed = status;
    const running = tests.child.exitCode === null && tests.child.signalCode === null;
    process.stdout.write(`\n${check.name} failed (exit ${status})${running ? '; the tests are stopped' : ''}:\n${output}`);
    if (running) tests.child.kill('SIGTERM');
  });
}

const [testsEnded, ...checksEnded] = await Promise.all([tests.ended, ...checks.map((check) => check.ended)]);
if (failed === 0) {
  for (const [at, { output }] of checksEnded.entries())
    process.stdout.write(`\n${checks[at].name}: passed${output.trim() === '' ? '' : `\n${output.trimEnd()}`}\n`);
  failed = [...checksEnded, testsEnded].find(({ status }) => status !== 0)?.status ?? 0;
}
process.exitCode = failed;
