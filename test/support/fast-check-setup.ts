// Every property test of `npm test` shares these fast-check settings (vitest setupFiles).
//
// - On failure fast-check's report names the seed and the shrink path
//   (`{ seed: N, path: "…", endOnFailure: true }`) and, with `verbose`, every failing value it
//   met while shrinking; vitest prints that report as the error message, so a failure seen once
//   can be replayed.
// - `OPENWOP_FC_SEED=N` (and optionally `OPENWOP_FC_PATH=…`) replays that run:
//   `OPENWOP_FC_SEED=823015108 npx vitest run hosts/reference/bad-input.test.ts`.

import fc from 'fast-check';

function integerFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`Test bug: ${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
}

const seed = integerFromEnv('OPENWOP_FC_SEED');
const path = process.env.OPENWOP_FC_PATH;

fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  verbose: fc.VerbosityLevel.Verbose,
  ...(seed === undefined ? {} : { seed }),
  ...(seed !== undefined && path ? { path } : {}),
});
