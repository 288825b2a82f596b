// The package as a user installs it: the sources copied aside and built there (`npm run build`),
// packed (`npm pack`), installed from the tarball into an empty folder with no install scripts
// (what an install that compiles nothing has), and the installed command run: its own `host`
// serves the embedded reference host, which it certifies by URL, and the bundle verifies. One
// build, one pack and one install per run: slow by nature, bounded by the timeouts below.

import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../lib/package-root.ts';

/** What the build reads, and what the package's `files` list ships. */
const SOURCES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'bin',
  'commands',
  'lib',
  'scenarios',
  'hosts',
  'scripts',
  'schemas',
  'fixtures',
  'requirements',
  'vectors',
  'docs',
  'README.md',
  'CONTRACT.md',
  'LICENSE',
];
const STEP_MS = 300_000;

const work = mkdtempSync(join(tmpdir(), 'owec-package-'));
const stage = join(work, 'stage');
const install = join(work, 'install');
const command = join(install, 'node_modules', '.bin', 'openwop-eval-conformance');

// The user's OPENWOP_* settings would steer the installed command; the dev key stays in `work`.
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENWOP_')));
env.OPENWOP_DEV_KEY_DIR = join(work, 'dev-keys');

interface Outcome {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a process to its end, or kills it at `STEP_MS`. */
function runProcess(file: string, args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function mustRun(file: string, args: string[], cwd: string): Promise<Outcome> {
  const outcome = await runProcess(file, args, cwd);
  if (outcome.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${outcome.code}: ${outcome.err.slice(-2000)}`);
  return outcome;
}

let host: ChildProcess | undefined;

/** The installed `openwop-eval-conformance host --port 0`: the embedded host's store runs without install scripts. */
async function startHost(): Promise<{ baseUrl: string; apiKey: string; apiKeyB: string }> {
  const child = spawn(command, ['host', '--port', '0'], { cwd: install, env, stdio: ['ignore', 'pipe', 'ignore'] });
  host = child;
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    const apiKey = /tenant A: \S+ +key (\S+)/.exec(text)?.[1];
    const apiKeyB = /tenant B: \S+ +key (\S+)/.exec(text)?.[1];
    if (baseUrl && apiKey && apiKeyB) return { baseUrl, apiKey, apiKeyB };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the reference host did not start listening: ${text}`);
}

beforeAll(async () => {
  for (const entry of SOURCES) cpSync(packagePath(entry), join(stage, entry), { recursive: true });
  symlinkSync(packagePath('node_modules'), join(stage, 'node_modules'));
  await mustRun('npm', ['run', 'build'], stage);
  await mustRun('npm', ['pack', '--ignore-scripts', '--pack-destination', work], stage);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
  mkdirSync(install);
  writeFileSync(join(install, 'package.json'), '{"private": true}\n');
  await mustRun('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], install);
}, 3 * STEP_MS);

afterAll(() => {
  host?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  const installed = (...path: string[]) => join(install, 'node_modules', 'openwop-eval-conformance', ...path);

  it('ships the build, the data the command reads and the licence, and no tests, bench or CI', () => {
    for (const path of [
      'dist/commands/cli.js',
      'dist/lib/schemas/precompiled.cjs',
      'dist/bundle/command.cjs',
      'dist/bundle/command.cjs.cache',
      'dist/bundle/reference-host.cjs',
      'dist/bundle/reference-host.cjs.cache',
      'schemas/v2/run-event.schema.json',
      'fixtures/eval-suites',
      'requirements/traceability.json',
      'vectors/schemas',
      'docs/wire.md',
      'LICENSE',
      'README.md',
      'CONTRACT.md',
    ]) {
      expect(existsSync(installed(path)), path).toBe(true);
    }
    for (const path of ['test', 'bench', '.ci', 'commands', 'lib', 'scenarios', 'hosts', 'scripts', 'dist/commands/vitest.js', 'dist/scenarios/index.test.js'])
      expect(existsSync(installed(path)), path).toBe(false);
    expect(readFileSync(installed('LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
  });

  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    const outcome = await runProcess(command, ['--version'], install);
    expect(outcome).toMatchObject({ code: 0, out: `${version}\n` });
  });

  it(
    'certifies the reference host by URL with an HTML report: exit 0, a bundle that verifies as certified, and a filtered one as nothing certified',
    async () => {
      const { baseUrl, apiKey, apiKeyB } = await startHost();
      const keys = generateKeyPairSync('ed25519');
      writeFileSync(join(work, 'host.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      writeFileSync(join(work, 'host.pub.pem'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
      const signing = ['--signing-key', join(work, 'host.pem'), '--signing-key-id', 'package-test', '--host-build', 'commit:0123456789abcdef'];
      const host = ['--base-url', baseUrl, '--api-key', apiKey, '--tenant-b-api-key', apiKeyB];
      const bundle = join(work, 'bundle.json');
      const html = join(work, 'reports', 'report.html');
      const run = await runProcess(command, ['run', ...host, '--certify', bundle, ...signing, '--html', html], install);
      expect(run.code, run.out.slice(-3000) + run.err.slice(-2000)).toBe(0);
      expect(run.out).toMatch(/^totals: \d+ executed-pass, 0 executed-fail, 0 skipped, \d+ inapplicable, 0 blocked$/m);
      const written = JSON.parse(readFileSync(bundle, 'utf8')) as { bundleVersion: unknown; signature: { keyId: unknown } };
      expect(written).toMatchObject({ bundleVersion: '3', signature: { keyId: 'package-test' } });
      expect(readFileSync(html, 'utf8')).toMatch(/<title>[^<]*certified/);
      const verified = await runProcess(command, ['verify', bundle, '--host-key', join(work, 'host.pub.pem')], install);
      expect(verified.code, verified.out).toBe(0);
      expect(verified.out).toMatch(/^eval verdict: certified: openwop-eval-suite-core, /m);

      const filtered = join(work, 'filtered.json');
      const partial = await runProcess(command, ['run', ...host, '--filter', '0081.suite-shape', '--certify', filtered, ...signing], install);
      // A filtered run certifies nothing: run says so with exit 4, as verify does.
      expect(partial.code, partial.err.slice(-2000)).toBe(4);
      const incomplete = await runProcess(command, ['verify', filtered, '--host-key', join(work, 'host.pub.pem')], install);
      expect(incomplete.code, incomplete.out).toBe(4);
      expect(incomplete.out).toMatch(/^eval verdict: nothing certified; not certified: /m);
    },
    STEP_MS,
  );
});
