// The test files of one worker share its process (vitest.config.ts `isolate: false`), its
// environment among the rest: a variable one file sets and leaves would steer the harness in the
// files the worker runs after it (OPENWOP_* settings, the development key folder), so a verdict
// would depend on the order the workers took the files in. Each file puts back what it changes in
// its own hooks; ./vitest-setup.ts holds it to that after every file.

/** The names of the variables `after` holds otherwise than `before` (set, changed or removed): names only, never values, which may be keys. */
export function envChanges(before: Readonly<Record<string, string | undefined>>, after: Readonly<Record<string, string | undefined>>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
