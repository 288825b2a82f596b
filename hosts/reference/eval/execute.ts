// Executing an eval run (CONTRACT §3): eval.started, every trial of every task in suite order
// with its eval.scored, eval.completed; the EvalSummary is the return value. run.started and
// run.completed belong to the server.

import type { AgentEnvironment } from './agent.ts';
import Fraction from 'fraction.js';
import { RunCancelled, runTrial } from './agent.ts';
import type { EngineBehaviour } from './behaviour.ts';
import { REFERENCE_BEHAVIOUR } from './behaviour.ts';
import type { TaskGrade, TrialGrade } from './grading.ts';
import { gradeSuite, gradeTask, gradeTrial, passScoreOf, trialSettings } from './grading.ts';
import { cloneJson, exactDecimal, fractionToNumber } from './json.ts';
import type { EvalRunIO } from './port.ts';
import { regressionBlock, scoredTasks } from './regression.ts';
import { readScript, trialScript } from './script.ts';
import { assertDocument, assertPayload } from './strict.ts';
import type { EvalPlan, MemorySeedEntry, Script, SuiteTask, UsageEntry } from './types.ts';

/**
 * The scripted judge (CONTRACT §3): its provider.usage events carry this provider, which is what
 * marks them as the judge's, wherever they stand in the log (RFC 0081 UQ 5, RFC 0244 §C).
 */
export const JUDGE_PROVIDER = 'scripted-judge';
const JUDGE_MODEL = 'judge-1';

/**
 * The judge's model calls on one trial: on a rubric task whose script names the scripted judge,
 * its calls alone (CONTRACT §3); on any other, those the host makes of its own
 * (EngineBehaviour.judgeUsage).
 */
function judgeCalls(task: SuiteTask, script: Script, trialIndex: number, behaviour: EngineBehaviour): UsageEntry[] {
  if (task.expected.kind === 'rubric' && script.judge !== undefined) return script.judge.usage;
  const own = behaviour.judgeUsage(task, trialIndex);
  return own === undefined ? [] : [own];
}

/** The memory every trial of the task starts from (none under live-shadow, which uses no fixtures). */
export function memorySeedOf(plan: EvalPlan, task: SuiteTask): MemorySeedEntry[] {
  if (plan.modes.includes('live-shadow')) return [];
  return plan.derivedMemory?.[task.taskId] ?? task.fixtures?.memorySeed ?? [];
}

function environment(io: EvalRunIO, behaviour: EngineBehaviour, emit: AgentEnvironment['emit'], plan: EvalPlan): AgentEnvironment {
  let invocations = 0;
  let calls = 0;
  return {
    emit,
    callLiveTool: behaviour.liveTools((toolName, inputs) => io.callLiveTool(toolName, inputs), plan.suite),
    recordToolCall: (call) => io.recordToolCall(call),
    cancelled: () => io.cancelled(),
    nextInvocationId: () => `invocation-${String(++invocations).padStart(6, '0')}`,
    nextCallId: () => `call-${String(++calls).padStart(6, '0')}`,
    hold: (key, timeoutMs) => io.hold(key, timeoutMs),
    delegateMemory: behaviour.delegateMemory,
    selectFixture: behaviour.selectFixture,
    answerMiss: behaviour.answerMiss,
  };
}

async function runEval(plan: EvalPlan, io: EvalRunIO, behaviour: EngineBehaviour): Promise<Record<string, unknown>> {
  // The engine checks what it produced, unless the host checks it as it takes it (io.checksOutput);
  // `outgoingEvents` stands between that and the log.
  const send = behaviour.outgoingEvents((type, payload) => io.emit(type, payload), plan);
  const emit = (type: string, payload: Record<string, unknown>): void => {
    if (io.checksOutput !== true) assertPayload(type, payload);
    send(type, payload);
  };
  const { suite } = plan;
  const settings = trialSettings(suite);
  const passScore = passScoreOf(suite, behaviour.defaultPassScore);
  const env = environment(io, behaviour, emit, plan);

  emit('eval.started', {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    taskCount: suite.tasks.length,
    modes: [...plan.modes],
    ...(settings.count > 1 ? { trialCount: settings.count } : {}),
    ...(plan.fixtureRuns === undefined ? {} : { fixtureRuns: cloneJson(plan.fixtureRuns) }),
    ...(plan.baseline === undefined ? {} : { baselineRunId: plan.baseline.runId }),
  });

  const taskGrades: TaskGrade[] = [];
  for (const task of suite.tasks) {
    const reading = readScript(task.input);
    if (!reading.ok) throw new Error(`executeEvalRun: task ${task.taskId} has no readable script; planEvalRun admits none`);
    const source = behaviour.fixtureSource(plan, task);
    const nextFixtures = source === undefined ? undefined : behaviour.fixturesPerTrial(source.entries, source.onMiss);
    const nextMemory = behaviour.memoryPerTrial(memorySeedOf(plan, task), { suiteId: suite.suiteId, taskId: task.taskId });

    const trials: TrialGrade[] = [];
    for (const trialIndex of behaviour.trialOrder(settings.count)) {
      if (io.cancelled()) throw new RunCancelled();
      await io.pace();
      if (io.cancelled()) throw new RunCancelled();

      const record = await runTrial(env, plan.agentId, trialScript(reading.script, trialIndex), nextFixtures?.(), nextMemory());
      // The reference host judges after the agent's bracket closed; a host may judge inside it.
      let judgeCost = new Fraction(0);
      for (const judge of judgeCalls(task, reading.script, trialIndex, behaviour)) {
        emit('provider.usage', {
          provider: JUDGE_PROVIDER,
          model: JUDGE_MODEL,
          inputTokens: judge.inputTokens,
          outputTokens: judge.outputTokens,
          totalTokens: judge.inputTokens + judge.outputTokens,
          ...(judge.costUsd === undefined ? {} : { costEstimateUsd: judge.costUsd }),
        });
        record.judgeUsage.push(judge);
        if (judge.costUsd !== undefined) judgeCost = judgeCost.add(exactDecimal(judge.costUsd));
      }
      record.costUsd = behaviour.trialCostUsd(record.costUsd, judgeCost);
      const grade = gradeTrial(task, record, plan.agentId, passScore, behaviour);
      emit('eval.scored', {
        taskId: task.taskId,
        trialIndex: behaviour.trialIndexOf(trialIndex),
        score: fractionToNumber(grade.score),
        passed: grade.passed,
        scoreLabel: grade.passed ? 'pass' : 'fail',
        evaluatorType: 'deterministic',
        costUsd: fractionToNumber(record.costUsd),
      });
      trials.push(grade);
    }
    taskGrades.push(gradeTask(task.taskId, trials, settings, passScore, source, behaviour));
  }

  const suiteGrade = gradeSuite(taskGrades, settings, passScore, suite.thresholds?.maxCostUsd, plan.facets.maxCostUsdPerSuite, behaviour);
  const summary: Record<string, unknown> = {
    suiteId: suite.suiteId,
    suiteVersion: suite.version,
    aggregateScore: fractionToNumber(suiteGrade.aggregateScore),
    passed: suiteGrade.passed,
    taskCount: taskGrades.length,
    passedCount: suiteGrade.passedCount,
    totalCostUsd: fractionToNumber(suiteGrade.totalCostUsd),
    // RFC 0081 §D: in the adversarial mode `safetyFindings` is the primary output of every task.
    // This host has no detector of unsafe behaviour beyond the script it runs, so it finds none.
    tasks: taskGrades.map((task) => (suite.modes.includes('adversarial') ? { ...task.entry, safetyFindings: [] } : task.entry)),
  };
  if (suiteGrade.trialStats !== undefined) summary.trialStats = suiteGrade.trialStats;
  if (plan.baseline !== undefined) {
    summary.regression = regressionBlock(
      { aggregateScore: summary.aggregateScore as number, tasks: scoredTasks(summary) },
      plan.baseline,
      plan.facets.regressionVerdict === true,
      behaviour,
    );
  }
  if (io.checksOutput !== true) assertDocument('eval-summary', summary);

  const regression = summary.regression as { scoreDelta: number } | undefined;
  emit('eval.completed', {
    aggregateScore: summary.aggregateScore,
    passed: summary.passed,
    taskCount: summary.taskCount,
    passedCount: summary.passedCount,
    ...(regression === undefined ? {} : { regressionVsBaseline: regression.scoreDelta }),
  });
  return behaviour.outgoingSummary(summary, suite);
}

/**
 * Runs the planned eval and resolves to the EvalSummary. Once `io.cancelled()` turns true the
 * engine stops at the next step or trial and resolves to `{}` (the server ignores it then).
 * `behaviour` is where a known-bad host swaps one decision (behaviour.ts); the default is the reference.
 */
export async function executeEvalRun(plan: EvalPlan, io: EvalRunIO, behaviour: EngineBehaviour = REFERENCE_BEHAVIOUR): Promise<Record<string, unknown>> {
  try {
    return await runEval(plan, io, behaviour);
  } catch (error) {
    if (error instanceof RunCancelled) return {};
    throw error;
  }
}
