// The reference grader (lib/grader/trajectory.ts, CONTRACT §6) side by side with LangChain's
// `agentevals` 0.0.7 trajectory match evaluators, on the modes whose semantics coincide, at 100,
// 1,000 and 10,000 calls. Called by bench/run.ts (section "Reference grader vs agentevals").
//
// agentevals is not a dependency: it is installed on demand into a temporary folder with
// `npm install --prefix DIR agentevals@0.0.7` (the ordinary npm client, the npm registry), imported
// from there, and the folder removed afterwards. Without a registry the section says so and skips.
//
// How each figure is measured: each side grades the same trajectory (below) in a loop, first for
// at least 300 ms of warm-up calls (at least one call), then N timed batches with performance.now(),
// each batch sized to last at least 5 ms (at least one call), ours and agentevals' batches in
// alternation so that a change of load on a shared machine falls on both; a figure is the median
// over the N batches of the time per call (N = 9, or 5 at 10,000 calls, where one agentevals call
// takes seconds). Ours is a synchronous call; agentevals' evaluator is async and awaited (its API).
//
// The inputs, per size n: 20 tools `bench.tool:t0…t19` in turn; call i has flat arguments
// {id: i, region: "r<i mod 7>", tags: [i mod 3]}. Expected calls carry `argsMatch: "exact"` (ours)
// / `toolArgsMatchMode: "exact"` (agentevals' default). Every observed call's arguments are parsed
// from their own JSON text with the keys in another order, so no comparison can short-cut on object
// identity. Ours reads the observed calls parsed (as the harness holds them after reading the event
// log). agentevals reads chat messages, one assistant message per tool call: for `strict` in the
// OpenAI form with the arguments as JSON text (the only form its strict scorer reads; it parses
// them itself), for the other modes as `{name, args}` with the arguments already parsed (accepted
// by its normaliser, and the cheaper form for it). Every instance is a match on both sides — the
// most work for both — and the bench checks that both verdicts are `true`, and that both are
// `false` when the arguments of the observed call for expected call 0 are changed.
//
// Where the semantics coincide (a fit is: same tool name, JSON-equal arguments — an equivalence
// relation — for which agentevals' greedy first-fit assignment is a maximum matching, so its
// one-to-one scans and our maximum matching agree):
// - exact ↔ strict: the same, one tool call per message (same length, i-th fits i-th).
// - any-order ↔ superset (outputs ⊇ reference): the same — every expected call gets its own
//   observed call, extra observed calls allowed. Measured with n/10 extra observed calls, shuffled.
// - any-order ↔ unordered: the same only when both lists have the same length (unordered also
//   rejects extra observed calls; any-order allows them). Measured on a shuffled permutation.
// - subset ↔ subset: NOT the same in general. CONTRACT §6 `subset` asks that every observed call
//   fit some expected call, several observed calls may fit the same one; agentevals' subset needs
//   a one-to-one assignment of observed calls to expected calls. The verdicts coincide when no two
//   observed calls are equal (same tool, JSON-equal arguments), as in the inputs here: a shuffled
//   half of the expected calls.
// - in-order: no counterpart. agentevals has no ordered-subsequence mode; its strict mode needs
//   equal lengths, where in-order is exact. Not compared.
// Both deep equalities ignore key order; they differ on values JSON-equal trajectories never
// produce here (agentevals' _deepEqual calls an array equal to an object with index keys, and
// null equal to a missing value).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gradeTrajectory, type ExpectedCall, type ObservedCall, type TrajectorySpec } from '../lib/grader/index.ts';
import type { BenchResult } from './grader.ts';

const VERSION = '0.0.7';
const SIZES = [100, 1_000, 10_000] as const;
const SAMPLES = 9;
/** Fewer batches at 10,000 calls, where one agentevals call takes seconds. */
const SAMPLES_SLOW = 5;
const WARMUP_MS = 300;
const MIN_BATCH_MS = 5;

type Message = { role: 'assistant'; content: string; tool_calls: unknown[] };
type Evaluator = (input: { outputs: Message[]; referenceOutputs: Message[] }) => Promise<{ score: unknown }>;
interface AgentEvals {
  createTrajectoryMatchEvaluator(options: {
    trajectoryMatchMode: 'strict' | 'unordered' | 'subset' | 'superset';
    toolArgsMatchMode: 'exact' | 'ignore';
  }): Evaluator;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const breathe = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `fn` once, awaiting it only when it returns a promise (agentevals; ours is synchronous). */
async function once(fn: () => unknown): Promise<void> {
  const r = fn();
  if (r instanceof Promise) await r;
}

/** Warm-up calls for at least WARMUP_MS (at least one call); a batch size lasting ≥ MIN_BATCH_MS. */
async function warm(fn: () => unknown): Promise<number> {
  const start = performance.now();
  let last = 0;
  do {
    const t0 = performance.now();
    await once(fn);
    last = performance.now() - t0;
  } while (performance.now() - start < WARMUP_MS);
  return Math.max(1, Math.ceil(MIN_BATCH_MS / Math.max(last, 1e-4)));
}

async function batchTime(fn: () => unknown, batch: number): Promise<number> {
  await breathe();
  const t0 = performance.now();
  for (let b = 0; b < batch; b++) await once(fn);
  return (performance.now() - t0) / batch;
}

/**
 * Median time per call in ms of each side. Both are warmed up, then timed in alternation, one
 * batch of ours then one of theirs, `samples` times, so a change of load on a shared machine falls
 * on both sides alike.
 */
async function measurePair(
  ours: () => unknown,
  theirs: () => unknown,
  samples: number,
): Promise<{ ours: { ms: number; batch: number }; theirs: { ms: number; batch: number } }> {
  const ourBatch = await warm(ours);
  const theirBatch = await warm(theirs);
  const ourTimes: number[] = [];
  const theirTimes: number[] = [];
  for (let s = 0; s < samples; s++) {
    ourTimes.push(await batchTime(ours, ourBatch));
    theirTimes.push(await batchTime(theirs, theirBatch));
  }
  return { ours: { ms: median(ourTimes), batch: ourBatch }, theirs: { ms: median(theirTimes), batch: theirBatch } };
}

/** A deterministic pseudo-random sequence (LCG), so every run measures the same trajectories. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Call {
  tool: string;
  /** The arguments as JSON text, keys in the order {tags, region, id} (the expected order reversed). */
  text: string;
}

const expectedArgs = (i: number) => ({ id: i, region: `r${i % 7}`, tags: [i % 3] });
const callOf = (i: number): Call => ({ tool: `bench.tool:t${i % 20}`, text: JSON.stringify({ tags: [i % 3], region: `r${i % 7}`, id: i }) });

interface Comparison {
  ours: TrajectorySpec['match'];
  theirs: 'strict' | 'unordered' | 'subset' | 'superset';
  note: string;
  /** The observed calls for expected calls 0…n−1. */
  observed(n: number, random: () => number): Call[];
}

const COMPARISONS: Comparison[] = [
  { ours: 'exact', theirs: 'strict', note: 'same semantics; observed = expected, in order', observed: (n) => Array.from({ length: n }, (_, i) => callOf(i)) },
  {
    ours: 'any-order',
    theirs: 'superset',
    note: 'same semantics; observed = expected shuffled with n/10 extra calls',
    observed: (n, random) => shuffled([...Array.from({ length: n }, (_, i) => callOf(i)), ...Array.from({ length: n / 10 }, (_, i) => callOf(n + i))], random),
  },
  {
    ours: 'any-order',
    theirs: 'unordered',
    note: 'same semantics at equal lengths only; observed = expected shuffled',
    observed: (n, random) =>
      shuffled(
        Array.from({ length: n }, (_, i) => callOf(i)),
        random,
      ),
  },
  {
    ours: 'subset',
    theirs: 'subset',
    note: 'semantics differ (agentevals is one-to-one); verdicts coincide here, observed calls pairwise distinct: a shuffled half of the expected',
    observed: (n, random) =>
      shuffled(
        Array.from({ length: n / 2 }, (_, i) => callOf(2 * i)),
        random,
      ),
  },
];

function install(): { dir: string; error?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'openwop-agentevals-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `agentevals@${VERSION}`], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status === 0) return { dir };
  const lines = (r.error?.message ?? r.stderr ?? '').split('\n').map((line) => line.trim());
  const why = lines
    .filter((line) => line !== '' && !line.includes('complete log'))
    .slice(0, 2)
    .join('; ');
  return { dir, error: why || `npm exit ${r.status}` };
}

const TRACING_VARS = ['LANGSMITH_TRACING', 'LANGSMITH_TRACING_V2', 'LANGCHAIN_TRACING', 'LANGCHAIN_TRACING_V2'];

export async function benchAgentevals(): Promise<BenchResult[]> {
  const load = loadavg()[0]!; // before npm install adds its own
  const { dir, error } = install();
  if (error !== undefined) {
    rmSync(dir, { recursive: true, force: true });
    return [
      {
        name: `comparison with agentevals ${VERSION}`,
        figure: `skipped: \`npm install agentevals@${VERSION}\` failed (${error.replaceAll('|', '/')}); no figures`,
        target: 'recorded, no target',
        ok: true,
      },
    ];
  }
  // agentevals wraps each evaluation in LangSmith's `traceable`; tracing stays off (no network).
  const saved = TRACING_VARS.map((name) => [name, process.env[name]] as const);
  for (const name of TRACING_VARS) process.env[name] = 'false';
  const results: BenchResult[] = [
    {
      name: 'inputs and method of the rows below',
      figure:
        'per size n: n expected calls over 20 tools in turn, flat arguments {id, region, tags}, argsMatch "exact" ↔ toolArgsMatchMode "exact"; ' +
        'observed arguments parsed from their own JSON text, keys in another order; ours reads parsed calls, agentevals one assistant message per call ' +
        '(OpenAI form with JSON-text arguments for strict, its only form; {name, args} already parsed for the others); every instance matches on both sides. ' +
        `Time per grading: median of ${SAMPLES} batches (${SAMPLES_SLOW} at 10,000) of ≥ ${MIN_BATCH_MS} ms each per side, ours and agentevals batches in alternation, after ≥ ${WARMUP_MS} ms of warm-up calls per side; agentevals awaited, LangSmith tracing off. ` +
        `Machine load average (1 min) when the section started: ${load.toFixed(1)} on ${availableParallelism()} cores`,
      target: 'recorded, no target',
      ok: true,
    },
    {
      name: 'in-order ↔ (none)',
      figure: 'not compared: agentevals has no ordered-subsequence mode; its strict mode needs equal lengths, where in-order is exact',
      target: 'recorded, no target',
      ok: true,
    },
  ];
  try {
    const agentevals = (await import(pathToFileURL(join(dir, 'node_modules', 'agentevals', 'index.js')).href)) as AgentEvals;
    for (const cmp of COMPARISONS) {
      const evaluator = agentevals.createTrajectoryMatchEvaluator({ trajectoryMatchMode: cmp.theirs, toolArgsMatchMode: 'exact' });
      for (const n of SIZES) {
        const random = lcg(0xa9e7 + n);
        const expectedCalls = Array.from({ length: n }, (_, i) => callOf(i));
        const observedCalls = cmp.observed(n, random);

        const spec: TrajectorySpec = {
          match: cmp.ours,
          calls: expectedCalls.map((c, i): ExpectedCall => ({ tool: c.tool, args: expectedArgs(i), argsMatch: 'exact' })),
        };
        const observed: ObservedCall[] = observedCalls.map((c) => ({ toolName: c.tool, inputs: JSON.parse(c.text) as unknown }));

        // agentevals' input: expected calls as the reference, observed as the outputs.
        const openai = (c: Call, id: string): Message => ({
          role: 'assistant',
          content: '',
          tool_calls: [{ id, type: 'function', function: { name: c.tool, arguments: c.text } }],
        });
        const parsed = (c: Call, id: string): Message => ({
          role: 'assistant',
          content: '',
          tool_calls: [{ id, name: c.tool, args: JSON.parse(c.text) as unknown }],
        });
        const form = cmp.theirs === 'strict' ? openai : parsed;
        const referenceOutputs = expectedCalls.map((c, i) => {
          // The reference's own arguments in the expected key order, as its own text.
          const text = JSON.stringify(expectedArgs(i));
          return form({ tool: c.tool, text }, `ref-${i}`);
        });
        const outputs = observedCalls.map((c, j) => form(c, `out-${j}`));

        const ourGrade = gradeTrajectory(spec, observed);
        const theirScore = (await evaluator({ outputs, referenceOutputs })).score;
        // The same trajectories with the arguments of the observed call for expected call 0
        // changed (every input above has one): both must say no.
        const k = observedCalls.findIndex((c) => c.text === callOf(0).text);
        const wrong: Call = { tool: observedCalls[k]!.tool, text: JSON.stringify({ tags: [9], region: 'none', id: -1 }) };
        const wrongObserved = observed.map((o, j) => (j === k ? { toolName: wrong.tool, inputs: JSON.parse(wrong.text) as unknown } : o));
        const wrongOutputs = outputs.map((m, j) => (j === k ? form(wrong, `out-${j}`) : m));
        const ourNo = gradeTrajectory(spec, wrongObserved).matched;
        const theirNo = (await evaluator({ outputs: wrongOutputs, referenceOutputs })).score;

        const samples = n >= 10_000 ? SAMPLES_SLOW : SAMPLES;
        const { ours, theirs } = await measurePair(
          () => gradeTrajectory(spec, observed),
          () => evaluator({ outputs, referenceOutputs }),
          samples,
        );

        const ratio = theirs.ms / ours.ms;
        const need = n >= 1_000 ? 10 : 1;
        const agree = ourGrade.matched === true && theirScore === true && ourNo === false && theirNo === false;
        results.push({
          name: `${cmp.ours} ↔ ${cmp.theirs}, ${n.toLocaleString('en-US')} expected / ${observed.length.toLocaleString('en-US')} observed calls (${cmp.note})`,
          figure:
            `ours ${fmt(ours.ms)} vs agentevals ${fmt(theirs.ms)} per grading: **${ratio.toFixed(1)}×** ` +
            `(medians of ${samples} batches each, ${ours.batch} / ${theirs.batch} calls a batch, timed in alternation after ≥ ${WARMUP_MS} ms of warm-up calls each; ` +
            `verdicts ${String(ourGrade.matched)} / ${String(theirScore)}, and ${String(ourNo)} / ${String(theirNo)} with one observed call's arguments changed)`,
          target: n >= 1_000 ? 'ours ≥ 10× faster' : 'ours no slower',
          ok: agree && ratio >= need,
        });
        await breathe();
      }
    }
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

function fmt(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}
