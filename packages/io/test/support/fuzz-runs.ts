/**
 * How many inputs a fuzz property tries: `PARL_FUZZ_RUNS` (set by `pnpm fuzz`), else `short` (the
 * number `pnpm test` runs).
 */
export function fuzzRuns(short: number): number {
  const env = Number(process.env['PARL_FUZZ_RUNS']);
  return Number.isInteger(env) && env > 0 ? env : short;
}

/**
 * The seed of a fuzz property: `PARL_FUZZ_SEED` (a run to repeat, as the other packages' fuzz
 * reads it) plus `offset`, so that each property of one run draws its own inputs; else `offset`.
 */
export function fuzzSeed(offset: number): number {
  const env = Number(process.env['PARL_FUZZ_SEED']);
  return Number.isInteger(env) ? (env + offset) | 0 : offset;
}

/**
 * The time limit of a fuzz property of `runs` inputs: a safety net against a hang, not a speed
 * check (10 minutes, or 200 ms an input for the long runs of `pnpm fuzz`).
 */
export function fuzzTimeout(runs: number): number {
  return Math.max(600_000, runs * 200);
}
