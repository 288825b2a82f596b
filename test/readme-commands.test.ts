// Every command the README shows in its shell blocks runs from a clean clone, with the exit code
// the README documents. Each is run here in-process, through the command line's own entry
// (test/support/cli.ts, what bin/openwop-eval-conformance.mjs calls), with the files it writes and
// the development key moved to a temporary folder; `npx openwop-eval-conformance` is that entry,
// and `npm start` is the command package.json gives it. A command that cannot run here is listed
// in CANNOT_RUN_HERE with the reason; a command the README gains that is in neither list fails.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';
import { cli } from './support/cli.ts';

const BIN = 'openwop-eval-conformance';

/** The commands that cannot run here, each with why, matched on the start of the command. */
const CANNOT_RUN_HERE: ReadonlyArray<{ start: string; why: string }> = [
  { start: 'npm ci', why: 'it installs node_modules/, which this test runs from; a clean clone runs it first, as CI does' },
  { start: 'npm test', why: 'it is the suite this test is part of' },
  {
    start: `npx ${BIN} run --base-url https://host.example`,
    why: "a remote host, with the vendor's API keys, signing key and build id; its flags are checked against run --help instead",
  },
];

/** The exit code the README documents for each command run here, by its words after `npx openwop-eval-conformance`. */
const DOCUMENTED_CODE: Record<string, number> = {
  'verify evidence/reference-host.bundle.json --host-key ~/.config/openwop-eval-conformance/dev-signing-key.pub.pem': 0,
  'run --offline': 0,
  'run --help': 0,
};

/** A command line split into words as a POSIX shell splits it (quotes removed, `$VAR` left as written), up to an unquoted `#`. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The commands of the README's `sh` blocks, a continued line joined to the next, in order. */
function readmeCommands(readme: string): string[][] {
  const blocks = [...readme.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n/g, ' ')
      .split('\n')
      .map(shellWords)
      .filter((words) => words.length > 0),
  );
}

const readme = readFileSync(packagePath('README.md'), 'utf8');
const commands = readmeCommands(readme);
const dir = mkdtempSync(join(tmpdir(), 'owec-readme-commands-'));
const keyDir = join(dir, 'key');

/** The command's files in the temporary folder: `evidence/` and the development key's folder. */
function moved(argv: readonly string[]): string[] {
  return argv.map((word) => word.replace(/^evidence\//, `${join(dir, 'evidence')}/`).replace(/^~\/\.config\/openwop-eval-conformance\//, `${keyDir}/`));
}

/** `npm start`, once: the arguments package.json gives the command. */
let started: Promise<{ code: number; out: string; err: string }> | undefined;
function npmStart() {
  const { scripts } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { scripts: { start: string } };
  const words = shellWords(scripts.start);
  expect(words.slice(0, 2), 'npm start runs the in-repo command').toEqual(['node', `bin/${BIN}.mjs`]);
  started ??= cli(...moved(words.slice(2)));
  return started;
}

const saved = process.env.OPENWOP_DEV_KEY_DIR;
beforeAll(() => {
  process.env.OPENWOP_DEV_KEY_DIR = keyDir;
});
afterAll(() => {
  if (saved === undefined) delete process.env.OPENWOP_DEV_KEY_DIR;
  else process.env.OPENWOP_DEV_KEY_DIR = saved;
});

describe('the commands of the README', () => {
  it('are found: the three Quickstart commands, a verify command and a vendor command', () => {
    const lines = commands.map((words) => words.join(' '));
    expect(lines).toEqual(expect.arrayContaining(['npm ci', 'npm start', 'npm test']));
    expect(lines.some((line) => line.startsWith(`npx ${BIN} verify `))).toBe(true);
    expect(lines.some((line) => line.startsWith(`npx ${BIN} run --base-url `))).toBe(true);
  });

  for (const words of commands) {
    const line = words.join(' ');
    const cannot = CANNOT_RUN_HERE.find((entry) => line === entry.start || line.startsWith(`${entry.start} `));
    if (cannot !== undefined && words[0] === 'npx') {
      it(`${line}: cannot run here (${cannot.why}); every flag it uses is one --help lists`, async () => {
        const help = await cli(words[2]!, '--help');
        expect(help.code).toBe(0);
        for (const flag of words.filter((word) => word.startsWith('--'))) expect(help.out, flag).toContain(flag);
      });
    } else if (cannot !== undefined) {
      it.skip(`${line}: cannot run here (${cannot.why})`, () => {});
    } else if (line === 'npm start') {
      it('npm start: certifies the embedded reference host, writes and verifies its bundle and archive, exit 0', { timeout: 120_000 }, async () => {
        const { code, out, err } = await npmStart();
        expect(code, err).toBe(0);
        expect(out).toMatch(/^eval verdict: self-attested \(signed with a development key\): certified: /m);
        expect(existsSync(join(dir, 'evidence', 'reference-host.bundle.json')), 'the bundle').toBe(true);
        expect(existsSync(join(dir, 'evidence', 'reference-host.archive.har.gz')), 'the archive').toBe(true);
      });
    } else if (words[0] === 'npx' && words[1] === BIN) {
      const argv = words.slice(2);
      it(`${line}: exit ${DOCUMENTED_CODE[argv.join(' ')] ?? '(not documented here)'}`, { timeout: 120_000 }, async () => {
        const code = DOCUMENTED_CODE[argv.join(' ')];
        expect(code, `add the exit code the README documents for "${line}" to DOCUMENTED_CODE, or it to CANNOT_RUN_HERE with why`).toBeDefined();
        if (argv[0] === 'verify') expect((await npmStart()).code, 'npm start wrote the bundle').toBe(0);
        const outcome = await cli(...moved(argv));
        expect(outcome.code, outcome.err).toBe(code);
      });
    } else {
      it(`${line}: is run here or said why not`, () => {
        expect.fail(`the README shows "${line}": run it in this test, or list it in CANNOT_RUN_HERE with why`);
      });
    }
  }
});
