// Known-bad hosts whose defect shows only where a task's trials meet another feature, which no
// fixed suite combined: an isError entry, an onMiss "live" miss, a delegate's memory, the task
// ceiling. Each later trial must start from the same fixtures and memory as the first (RFC 0244
// §B), and the ceiling counts tasks (RFC 0081 §D). The witnesses: the isError leg's seeded task
// and the second-run leg's seeded suite run two trials where the host runs them; the delegate of
// the trajectory edges reads a key before it writes it, every trial; the suite of exactly
// maxTasksPerSuite tasks runs two trials each.

import { freshTrialFixtures } from '../../reference/eval/tools.ts';
import { type KnownBadHost, type REF, engine } from './build.ts';

/** The reference's fresh cursor per trial, but an isError entry once consumed stays consumed for the task's later trials. */
function isErrorEntriesSpentForTheTask(): typeof REF.fixturesPerTrial {
  return (entries, onMiss) => {
    const spent = new Set<number>();
    return () => {
      const trial = freshTrialFixtures(entries, onMiss);
      for (const index of spent) trial.consumed.add(index);
      const consume = trial.consumed.add.bind(trial.consumed);
      trial.consumed.add = (index: number) => {
        if (entries[index]?.isError === true) spent.add(index);
        return consume(index);
      };
      return trial;
    };
  };
}

/** The trial's memory, but what a delegate writes is also kept by the host and handed to every later delegate step. */
function delegateWritesKept(): typeof REF.delegateMemory {
  const kept = new Map<string, unknown>();
  return (memory) => {
    for (const [key, value] of kept) if (!memory.has(key)) memory.set(key, value);
    const write = memory.set.bind(memory);
    memory.set = (key: string, value: unknown) => {
      kept.set(key, value);
      return write(key, value);
    };
    return memory;
  };
}

export const TRIALS_COMBINED: KnownBadHost[] = [
  {
    name: 'is-error-entry-spent-across-trials',
    defect: "an isError entry consumed in one trial stays consumed in the task's later trials (the rest of the cursor resets)",
    clause: 'RFC 0244 §B (each trial starts from the same fixtures), §D (the cursor resets per trial)',
    ...engine({ fixturesPerTrial: isErrorEntriesSpentForTheTask() }),
  },
  {
    name: 'later-trials-miss-fails-closed',
    defect: 'the trials after the first of an onMiss "live" task run under onMiss "fail"',
    clause: "RFC 0244 §B (each trial starts from the same fixtures), §D (onMiss is the task's)",
    ...engine({
      fixturesPerTrial: (entries, onMiss) => {
        let trials = 0;
        return () => freshTrialFixtures(entries, trials++ === 0 ? onMiss : 'fail');
      },
    }),
  },
  {
    name: 'delegate-memory-kept-across-trials',
    defect: 'what a delegate writes is kept by the host and seeds every later delegate step, of later trials, tasks and runs',
    clause: "RFC 0244 §B (memory written by one trial is not visible to another), CONTRACT §3 (a delegate uses the trial's memory)",
    ...engine({ delegateMemory: delegateWritesKept() }),
  },
  {
    name: 'task-ceiling-counts-trials',
    defect: 'maxTasksPerSuite is held against tasks times trials, so a suite of exactly that many tasks is refused when it has trials',
    clause: 'RFC 0081 §D (maxTasksPerSuite is a ceiling on tasks), CONTRACT §2 (a suite of exactly maxTasksPerSuite tasks is run and graded)',
    ...engine({
      taskCeilingRefusal: (suite, facets) => {
        const runs = suite.tasks.length * (suite.trials?.count ?? 1);
        if (facets.maxTasksPerSuite === undefined || runs <= facets.maxTasksPerSuite) return undefined;
        return { status: 400, error: 'validation_error', message: `tasks: ${runs} task runs, over maxTasksPerSuite`, details: { field: 'tasks' } };
      },
    }),
  },
];
