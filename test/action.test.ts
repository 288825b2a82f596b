// The GitHub Action (action.yml at the root): read with a YAML parser, its inputs and outputs
// held to what the `run` command takes and writes, and its steps run here as a runner runs a
// composite action — each `run` script through `bash --noprofile --norc -eo pipefail`, its `env`
// and `working-directory` expressions filled in from the inputs, the earlier steps' outputs and
// the `github` context, with the variables a runner sets (CI, GITHUB_ACTIONS, RUNNER_TEMP,
// RUNNER_TOOL_CACHE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH, GITHUB_WORKSPACE) —
// against the practice host as a vendor starts it: the installed package's `host` command in its
// own process, started once the install step has installed it, publishing the public half of the
// key the Action signs with (`host --publish-key`). Every input keeps its
// documented default but the host's address and keys, the signing key and the report folder, as
// docs/certifying.md's workflow gives them; `require-behavior` is the default, `true`. The cache
// step (actions/cache) is not run: the run is a cache miss, and a second run of the install step
// stands for the hit.
//
// The install step builds the package (`npm pack`, through prepack's `npm run build`), packs it
// and installs the tarball with no install scripts, as a user installs it; the package as
// installed is then held here too, against that same install and that same certification (one
// build, one pack, one install and one certification per run, where a file of its own built,
// installed and certified once more): what it ships and does not, that its documents link only to
// what it ships, `--version`, its own `host` certified by URL with an HTML report and verified as
// certified, and a filtered run at exit 4.

import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cli } from './support/cli.ts';
import { type HostProcess, startHostProcess } from './support/host-process.ts';
import { brokenLinks } from './support/markdown-links.ts';
import { packagePath } from '../lib/package-root.ts';

interface Step {
  name: string;
  id?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
}
interface Action {
  name: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const ROOT = packagePath('.').replace(/\/$/, '');
const action = parse(readFileSync(packagePath('action.yml'), 'utf8')) as Action;
const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
/** The inputs that are not a flag of `run`. */
const NOT_FLAGS = ['report-dir'];
const SECRETS = ['api-key', 'tenant-b-api-key', 'signing-key'];
/** The bound of one step: the install step builds, packs and installs, minutes on a loaded machine. */
const STEP_MS = 360_000;

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file` to its end, or kills it at `STEP_MS`; its exit status and output. */
function runCommand(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_MS);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs a step's script as a runner does, bounded in time. */
function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], cwd, env);
}

/** `${{ … }}` filled in from `context` (dotted names only: the action uses no other expression). */
function expand(text: string, context: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in context)) throw new Error(`action.yml uses ${name}, which this runner does not provide`);
    return context[name]!;
  });
}

describe('action.yml', () => {
  it('is a composite action whose steps all run bash scripts, but the cache of the installed harness', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.length).toBeGreaterThan(0);
    for (const step of action.runs.steps.filter((s) => s.uses === undefined)) {
      expect(step.shell, step.name).toBe('bash');
      expect(step.run, step.name).toBeTypeOf('string');
    }
    expect(action.runs.steps.filter((s) => s.uses !== undefined)).toEqual([
      {
        name: 'Restore the installed harness',
        uses: 'actions/cache@v4',
        with: { path: `\${{ steps.harness.outputs.dir }}`, key: `\${{ steps.harness.outputs.key }}` },
      },
    ]);
  });

  it('takes, as inputs, flags that run --help lists, each reaching the command', async () => {
    const { out: help } = await cli('run', '--help');
    const certify = action.runs.steps.find((step) => step.id === 'certify')!;
    const env = Object.entries(certify.env ?? {});
    for (const name of Object.keys(action.inputs)) {
      const variable = env.find(([, value]) => value === `\${{ inputs.${name} }}`)?.[0];
      expect(variable, `input ${name} is passed to the certify step's environment`).toBeDefined();
      if (NOT_FLAGS.includes(name)) continue;
      expect(help, `input ${name} is a flag of run`).toContain(`\n  --${name} `);
      // An input lands in the flag's own variable, or the script turns it into the flag or the variable.
      const flagHelp = help.slice(help.indexOf(`\n  --${name} `) + 1).split('\n  --')[0]!;
      const own = /env\s+(OPENWOP_[A-Z_]+)/.exec(flagHelp)?.[1];
      if (own !== undefined && variable !== own) expect(certify.run, `input ${name}: ${variable} becomes ${own}`).toContain(`export ${own}=`);
      if (own === undefined) expect(certify.run, `input ${name}: ${variable} becomes --${name}`).toContain(`--${name} "$${variable}"`);
    }
  });

  it('keeps the secret inputs out of every script text (they travel in the environment only)', () => {
    for (const step of action.runs.steps) for (const secret of SECRETS) expect(step.run ?? JSON.stringify(step.with)).not.toContain(`inputs.${secret}`);
  });

  it('declares outputs that the certify step writes', () => {
    const certify = action.runs.steps.find((step) => step.id === 'certify')!;
    expect(Object.keys(action.outputs).sort()).toEqual(['bundle', 'certified-profiles', 'report-dir', 'verdict']);
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value).toBe(`\${{ steps.certify.outputs.${name} }}`);
      expect(certify.run).toContain(`\`${name}=`);
    }
  });
});

describe('the steps of action.yml, run as a runner runs them', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'owec-action-'));
  const runnerTemp = join(workspace, '_temp');
  const toolCache = join(workspace, '_tool');
  // The action's folder as a runner downloads it: a still copy of this checkout, so the files the
  // other test files write meanwhile cannot move under the step that hashes and packs it.
  const actionPath = join(workspace, '_action');
  const summaryFile = join(runnerTemp, 'step-summary.md');
  const installLog = join(runnerTemp, 'npm-installs.log');
  const pair = generateKeyPairSync('ed25519');
  const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = join(workspace, 'host.pub.pem');
  let host: HostProcess | undefined;
  /** The installed command, once the install step has run. */
  const command = () => join(outputs.harness!.dir!, 'node_modules', '.bin', 'openwop-eval-conformance');
  // The user's OPENWOP_* settings would steer the installed command; its dev key stays in the workspace.
  const userEnv: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENWOP_'))),
    OPENWOP_DEV_KEY_DIR: join(workspace, 'dev-keys'),
  };
  let results: Array<{ step: string; status: number | null; stdout: string; stderr: string }> = [];
  /** Each step's GITHUB_OUTPUT, as the step wrote it, by step id. */
  const outputs: Record<string, Record<string, string>> = {};
  /** The install step's script and environment, to run it again as a cache hit. */
  let installAgain: (() => ReturnType<typeof runScript>) | undefined;

  beforeAll(async () => {
    mkdirSync(runnerTemp, { recursive: true });
    cpSync(ROOT, actionPath, { recursive: true, filter: (source) => !/[\\/](node_modules|dist|\.git)$/.test(source) });
    writeFileSync(summaryFile, '');
    writeFileSync(publicPem, pair.publicKey.export({ type: 'spki', format: 'pem' }));
    // The host's address and keys join the inputs once the host has started, after the install step.
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ''])),
      'signing-key': privatePem,
      'signing-key-id': 'action-key',
      'report-dir': 'out',
    };
    const context: Record<string, string> = {
      ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`inputs.${name}`, value])),
      'github.action_path': actionPath,
      'github.sha': 'f'.repeat(40),
      'github.workspace': workspace,
    };
    // What a runner's environment holds; nothing of this process's own OPENWOP_* settings.
    const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPENWOP_') && !name.startsWith('GITHUB_')));
    // A shim first on PATH records every npm call with its folder. `npm ci` links this
    // checkout's node_modules instead of installing (what it installs is package-lock.json, and
    // the network is for the install of the packed harness); every other call is npm's own.
    const shims = join(runnerTemp, 'shims');
    mkdirSync(shims, { recursive: true });
    const realNpm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(shims, 'npm'),
      `#!/bin/sh\necho "$PWD: npm $*" >> "${installLog}"\nif [ "$1" = ci ]; then exec ln -s "${ROOT}/node_modules" node_modules; fi\nexec "${realNpm}" "$@"\n`,
      { mode: 0o755 },
    );
    const runner = {
      ...base,
      PATH: `${shims}:${base.PATH ?? ''}`,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      RUNNER_TEMP: runnerTemp,
      RUNNER_TOOL_CACHE: toolCache,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_WORKSPACE: workspace,
      GITHUB_SHA: 'f'.repeat(40),
    };
    results = [];
    for (const [index, step] of action.runs.steps.entries()) {
      if (step.uses !== undefined) continue;
      const script = join(runnerTemp, `step-${index}.sh`);
      const outputFile = join(runnerTemp, `output-${index}`);
      writeFileSync(outputFile, '');
      writeFileSync(script, expand(step.run!, context));
      const env = {
        ...runner,
        GITHUB_OUTPUT: outputFile,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value, context)])),
      };
      const cwd = step['working-directory'] === undefined ? workspace : expand(step['working-directory'], context);
      const ran = await runScript(script, cwd, env);
      results.push({ step: step.name, ...ran });
      if (ran.status !== 0) break;
      if (step.name === 'Install the harness') {
        installAgain = () => runScript(script, cwd, env);
        // The vendor's host, from the installed package: it publishes the vendor's public key only.
        host = await startHostProcess(['--publish-key', publicPem, '--signing-key-id', 'action-key'], { command: command(), env: userEnv, cwd: workspace });
        expect(host.banner).toMatch(/^publishes signing key action-key in its discovery signingKeys$/m);
        context['inputs.base-url'] = host.baseUrl;
        context['inputs.api-key'] = host.tenants.a.apiKey;
        context['inputs.tenant-b-api-key'] = host.tenants.b.apiKey;
      }
      if (step.id !== undefined) {
        outputs[step.id] = Object.fromEntries(
          readFileSync(outputFile, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        );
        for (const [name, value] of Object.entries(outputs[step.id]!)) context[`steps.${step.id}.outputs.${name}`] = value;
      }
    }
  }, 3 * STEP_MS);
  afterAll(async () => {
    await host?.close();
  });

  it('builds the harness in a scratch folder and installs the packed build without development dependencies', () => {
    const dir = outputs.harness?.dir;
    expect(dir).toMatch(
      new RegExp(
        `^${toolCache}/openwop-eval-conformance/openwop-eval-conformance-\\d+\\.\\d+\\.\\d+-${process.platform}-${process.arch}-node\\d+-[0-9a-f]{16}$`,
      ),
    );
    expect(outputs.harness?.key).toBe(dir!.slice(dir!.lastIndexOf('/') + 1));
    const calls = readFileSync(installLog, 'utf8').trim().split('\n');
    expect(calls).toEqual([
      expect.stringMatching(new RegExp(`^${runnerTemp}/openwop-eval-conformance-build\\.\\w+: npm ci --ignore-scripts --no-audit --no-fund$`)),
      expect.stringMatching(new RegExp(`^${runnerTemp}/openwop-eval-conformance-build\\.\\w+: npm pack --pack-destination `)),
      expect.stringMatching(/: npm run build$/),
      `${dir}: npm install --omit=dev --ignore-scripts --no-audit --no-fund ${calls[0]!.slice(0, calls[0]!.indexOf(':'))}/openwop-eval-conformance-${version}.tgz`,
    ]);
    const installed = readdirSync(join(dir!, 'node_modules'));
    expect(installed).toContain('openwop-eval-conformance');
    expect(existsSync(join(dir!, 'node_modules', 'openwop-eval-conformance', 'dist'))).toBe(true);
    for (const dev of ['vitest', 'vite', 'typescript', 'tsx', '@biomejs', 'playwright-core', 'fast-check', 'yaml']) expect(installed, dev).not.toContain(dev);
    expect(
      readdirSync(runnerTemp).filter((name) => name.startsWith('openwop-eval-conformance-build')),
      'the scratch folder is removed',
    ).toEqual([]);
  });

  it('installs nothing when the cache restored the harness', async () => {
    const before = readFileSync(installLog, 'utf8');
    const again = await installAgain!();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^the harness is installed at \d+\.\d+\.\d+ in /);
    expect(readFileSync(installLog, 'utf8')).toBe(before);
  });

  it('every step succeeds against the reference host', () => {
    expect(
      results.map((r) => [r.step, r.status]),
      results.map((r) => r.stderr).join('\n'),
    ).toEqual(action.runs.steps.filter((step) => step.uses === undefined).map((step) => [step.name, 0]));
  });

  it('sets the outputs: verdict, the certified profiles, the bundle and the report folder', () => {
    // The eval profiles, as the eval certificate beside the bundle states them; a published key, so unqualified.
    const certificate = JSON.parse(readFileSync(join(workspace, 'out', 'bundle.eval-certificate.json'), 'utf8')) as {
      profiles: Array<{ id: string; certified: boolean }>;
    };
    expect(certificate.profiles.length).toBeGreaterThan(0);
    expect(outputs.certify).toEqual({
      verdict: 'certified',
      'certified-profiles': certificate.profiles
        .filter((p) => p.certified)
        .map((p) => p.id)
        .join(','),
      bundle: 'out/bundle.json',
      'report-dir': 'out',
    });
  });

  it('writes every report to the folder and the summary to the step summary, with no secret anywhere', () => {
    expect(readdirSync(join(workspace, 'out')).sort()).toEqual([
      'bundle.archive.har.gz',
      'bundle.archive.har.gz.sig.json',
      'bundle.eval-certificate.json',
      'bundle.json',
      'junit.xml',
      'otel.json',
      'report.html',
      'report.json',
      'summary.md',
    ]);
    const summary = readFileSync(summaryFile, 'utf8');
    expect(summary).toMatch(/^## OpenWOP eval conformance: certified: (\d+) of \1 profiles$/m);
    const everything = [
      summary,
      ...readdirSync(join(workspace, 'out')).map((file) => readFileSync(join(workspace, 'out', file), 'utf8')),
      ...results.map((r) => r.stdout + r.stderr),
    ].join('\n');
    for (const secret of [host!.tenants.a.apiKey, host!.tenants.b.apiKey, privatePem.split('\n')[1]!]) expect(everything).not.toContain(secret);
    // The key file lived in RUNNER_TEMP only while the step ran.
    expect(readdirSync(runnerTemp).filter((file) => file.startsWith('openwop-signing-key'))).toEqual([]);
  });

  it('cuts a bundle that verify verifies under the host key', async () => {
    const { code, out } = await cli('verify', join(workspace, 'out', 'bundle.json'), '--host-key', publicPem);
    expect(out).toMatch(/^authenticity: verified/m);
    expect(code).toBe(0);
  });

  describe('the package it installed, as a user runs it', () => {
    const installed = (...path: string[]) => join(outputs.harness!.dir!, 'node_modules', 'openwop-eval-conformance', ...path);
    const run = (...args: string[]) => runCommand(command(), args, workspace, userEnv);

    it('ships the build, the data the command reads and the licence, and no tests, bench or CI', () => {
      // The scratch folder it was packed from held all of the checkout (test/, bench/, .ci/ and the sources too).
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
      for (const path of [
        'test',
        'bench',
        '.ci',
        'commands',
        'lib',
        'scenarios',
        'hosts',
        'scripts',
        'dist/commands/vitest.js',
        'dist/scenarios/index.test.js',
      ])
        expect(existsSync(installed(path)), path).toBe(false);
      expect(readFileSync(installed('LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    });

    it('links, in every document it ships, only to files it ships (and headings they have)', () => {
      const root = installed();
      const docs = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md') && !name.includes('node_modules'));
      expect(docs).toEqual(expect.arrayContaining(['README.md', 'CONTRACT.md', join('docs', 'certifying.md'), join('requirements', 'README.md')]));
      expect(docs.flatMap((doc) => brokenLinks(root, doc, readFileSync(join(root, doc), 'utf8')))).toEqual([]);
    });

    it('prints its version', async () => {
      expect(await run('--version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    });

    it('certified its own host by URL with an HTML report (the Certify step): a bundle that its verify finds certified', async () => {
      const certify = results.find((result) => result.step === 'Certify');
      expect(certify?.status, certify?.stderr.slice(-2000)).toBe(0);
      expect(certify!.stdout).toMatch(/^totals: \d+ executed-pass, 0 executed-fail, 0 skipped, \d+ inapplicable, 0 blocked$/m);
      const bundle = join(workspace, 'out', 'bundle.json');
      const written = JSON.parse(readFileSync(bundle, 'utf8')) as { bundleVersion: unknown; signature: { keyId: unknown } };
      expect(written).toMatchObject({ bundleVersion: '3', signature: { keyId: 'action-key' } });
      expect(readFileSync(join(workspace, 'out', 'report.html'), 'utf8')).toMatch(/<title>[^<]*certified/);
      const verified = await run('verify', bundle, '--host-key', publicPem);
      expect(verified.status, verified.stdout).toBe(0);
      expect(verified.stdout).toMatch(/^eval verdict: certified: openwop-eval-suite-core, /m);
    });

    it('runs filtered by its flags and certifies nothing: run and verify exit 4', async () => {
      const key = join(workspace, 'package.pem');
      writeFileSync(key, privatePem, { mode: 0o600 });
      const filtered = join(workspace, 'filtered.json');
      const target = ['--base-url', host!.baseUrl, '--api-key', host!.tenants.a.apiKey, '--tenant-b-api-key', host!.tenants.b.apiKey];
      const signing = ['--signing-key', key, '--signing-key-id', 'action-key', '--host-build', 'commit:0123456789abcdef'];
      const partial = await run('run', ...target, '--filter', '0081.suite-shape', '--certify', filtered, ...signing);
      // A filtered run certifies nothing: run says so with exit 4, as verify does.
      expect(partial.status, partial.stderr.slice(-2000)).toBe(4);
      const incomplete = await run('verify', filtered, '--host-key', publicPem);
      expect(incomplete.status, incomplete.stdout).toBe(4);
      expect(incomplete.stdout).toMatch(/^eval verdict: nothing certified; not certified: /m);
    });
  });
});
