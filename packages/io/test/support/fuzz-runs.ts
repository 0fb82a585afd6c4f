/**
 * How many inputs a fuzz property tries: `PARL_FUZZ_RUNS` (set by `pnpm fuzz`), else `short` (the
 * number `pnpm test` runs).
 */
export function fuzzRuns(short: number): number {
  const env = Number(process.env['PARL_FUZZ_RUNS']);
  return Number.isInteger(env) && env > 0 ? env : short;
}
