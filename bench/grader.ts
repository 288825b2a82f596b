// Benchmarks of the reference grader (lib/grader). Called by bench/run.ts; writes nothing.
//
// Each figure is the median of several timed runs after one warm-up run, measured with
// performance.now(). Targets: trajectory grading of 10,000 × 10,000 calls under 2 s on a 2-core
// machine; pass@k / pass^k for n = 10,000 under 10 ms per call.

import { gradeTrajectory, passAtK, passHatK, type ExpectedCall, type ObservedCall, type TrajectorySpec } from '../lib/grader/index.ts';
import { gradeTrajectoryWithRoute } from '../lib/grader/trajectory.ts';
import { gradeTrajectoryByMatching } from '../lib/grader/trajectory-matching.ts';

export interface BenchResult {
  name: string;
  figure: string;
  target: string;
  ok: boolean;
}

const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median wall time of `fn` in ms over `runs` runs, after one warm-up. */
async function time(fn: () => unknown, runs = RUNS): Promise<number> {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
    await new Promise((resolve) => setImmediate(resolve)); // let the event loop breathe
  }
  return median(times);
}

/** A deterministic pseudo-random sequence (LCG), so every run grades the same calls. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const N = 10_000;

/** 20 tools, subset args on an id, a nested field and a list; observed carry extra members. */
function mixedCase(): { spec: TrajectorySpec; observed: ObservedCall[] } {
  const random = lcg(0x5eed);
  const calls: ExpectedCall[] = [];
  const observed: ObservedCall[] = [];
  for (let i = 0; i < N; i++) {
    const tool = `bench.tool:t${i % 20}`;
    const id = i % 2_500;
    calls.push({ tool, args: { id, order: { region: `r${i % 7}` }, tags: [i % 3] }, argsMatch: 'subset' });
    observed.push({ toolName: tool, inputs: { id, order: { region: `r${i % 7}`, total: Math.floor(random() * 10_000) }, tags: [i % 3], traceId: `x${i}` } });
  }
  return { spec: { match: 'any-order', calls }, observed: shuffled(observed, random) };
}

/** One tool, identical subset args on both sides: the complete 10⁴ × 10⁴ graph. */
function identicalCase(): { spec: TrajectorySpec; observed: ObservedCall[] } {
  const calls: ExpectedCall[] = Array.from({ length: N }, () => ({ tool: 'bench.tool:same', args: { x: 1 }, argsMatch: 'subset' as const }));
  const observed: ObservedCall[] = Array.from({ length: N }, () => ({ toolName: 'bench.tool:same', inputs: { x: 1 } }));
  return { spec: { match: 'any-order', calls }, observed };
}

/**
 * One tool, distinct observed inputs, expected calls mixing `ignore`, `exact` and `subset` with a
 * common leaf pair (long posting list) and a rare one (short), so the matching needs many
 * augmenting phases.
 */
function adversarialCase(): { spec: TrajectorySpec; observed: ObservedCall[] } {
  const random = lcg(0xbad);
  const calls: ExpectedCall[] = [];
  const observed: ObservedCall[] = [];
  for (let i = 0; i < N; i++) {
    const inputs = { common: 1, group: i % 100, id: i };
    observed.push({ toolName: 'bench.tool:one', inputs });
    const r = i % 4;
    if (r === 0) calls.push({ tool: 'bench.tool:one', argsMatch: 'ignore' });
    else if (r === 1) calls.push({ tool: 'bench.tool:one', args: { ...inputs }, argsMatch: 'exact' });
    else if (r === 2) calls.push({ tool: 'bench.tool:one', args: { common: 1, group: i % 100 }, argsMatch: 'subset' });
    else calls.push({ tool: 'bench.tool:one', args: { common: 1 }, argsMatch: 'subset' });
  }
  return { spec: { match: 'any-order', calls: shuffled(calls, random) }, observed: shuffled(observed, random) };
}

export async function benchGrader(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  const trajectoryCases: [string, () => { spec: TrajectorySpec; observed: ObservedCall[] }][] = [
    ['gradeTrajectory any-order/subset 10,000 × 10,000 (20 tools, mixed args)', mixedCase],
    ['gradeTrajectory any-order/subset 10,000 × 10,000 (all identical: complete graph)', identicalCase],
    ['gradeTrajectory any-order 10,000 × 10,000 (one tool, ignore/exact/subset mixed)', adversarialCase],
  ];
  for (const [name, build] of trajectoryCases) {
    const { spec, observed } = build();
    let matchedCount = -1;
    const ms = await time(() => {
      matchedCount = gradeTrajectory(spec, observed).matchedCount;
    });
    results.push({
      name,
      figure: `${ms.toFixed(1)} ms (median of ${RUNS}; matchedCount ${matchedCount})`,
      target: '< 2000 ms',
      ok: ms < 2_000 && matchedCount === N,
    });
  }

  // Every mode on the mixed case with the observed calls in expected order (observed inputs carry
  // extra members, the expected args are subset constraints): the linear routes decide, where the
  // full class-graph matching (gradeTrajectoryByMatching) is what every mode used to pay.
  {
    const { spec, observed } = mixedCase();
    const byCall = new Map(observed.map((o) => [(o.inputs as { traceId: string }).traceId, o]));
    const inOrder = spec.calls.map((_, i) => byCall.get(`x${i}`)!);
    for (const match of ['exact', 'in-order', 'any-order', 'subset'] as const) {
      const s: TrajectorySpec = { ...spec, match };
      const { grade, route } = gradeTrajectoryWithRoute(s, inOrder);
      const ms = await time(() => gradeTrajectory(s, inOrder));
      const full = await time(() => gradeTrajectoryByMatching(s, inOrder));
      results.push({
        name: `gradeTrajectory ${match} 10,000 × 10,000 (20 tools, subset args, observed in expected order)`,
        figure: `${ms.toFixed(2)} ms by the ${route} route; the full matching ${full.toFixed(1)} ms (medians of ${RUNS}; matchedCount ${grade.matchedCount})`,
        target: '< 2000 ms, and faster than the full matching',
        ok: ms < 2_000 && ms < full && grade.matched && grade.matchedCount === N,
      });
    }
  }

  const combos: [number, number][] = [
    [5_000, 5_000],
    [9_000, 100],
    [2_500, 7_500],
    [9_999, 10_000],
    [7_000, 3_000],
  ];
  for (const [c, k] of combos) {
    const at = await time(() => passAtK(N, c, k), 9);
    const hat = await time(() => passHatK(N, c, k), 9);
    results.push({
      name: `passAtK / passHatK n = 10,000, c = ${c}, k = ${k}`,
      figure: `${at.toFixed(3)} ms / ${hat.toFixed(3)} ms (median of 9)`,
      target: '< 10 ms each',
      ok: at < 10 && hat < 10,
    });
  }
  return results;
}
