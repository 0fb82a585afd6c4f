/**
 * A sweep's numbers (spec §9): the speed-up of one run over the always-serial baseline, the
 * verdict on one run (collapsed, spurious or parallel), and the summary of one grid point over
 * its seeds (mean and range of each quantity, the majority verdict).
 *
 * @module
 */
import { ParlInputError } from './errors.js';

/** What a trained policy turned out to be: it never launches, it launches idle sub-agents, or it works in parallel. */
export type RunVerdict = 'collapsed' | 'spurious' | 'parallel';

/** Every verdict, in the order reports list them. */
export const RUN_VERDICTS: readonly RunVerdict[] = ['collapsed', 'spurious', 'parallel'];

/** Where the verdicts' lines are drawn. */
export interface VerdictThresholds {
  /** Collapsed (serial) when the greedy policy's mean group width is at most this (default 1.5). */
  readonly maxSerialWidth: number;
  /** Spurious when the sub-agent finish rate is below this (default 0.5). */
  readonly minFinishRate: number;
}

/** The default {@link VerdictThresholds}: the bars the presets are held to in docs/simulator.md. */
export const DEFAULT_VERDICT_THRESHOLDS: VerdictThresholds = { maxSerialWidth: 1.5, minFinishRate: 0.5 };

/** One finished run of a sweep: the `final` and `baseline_serial` numbers of its `summary.json`. */
export interface SweepRunNumbers {
  /** Mean r_perf of the trained policy. */
  readonly final_r_perf: number;
  /** Its mean critical steps. */
  readonly final_critical_steps: number;
  /** Its mean group width. */
  readonly final_mean_width: number;
  /** Its sub-agent finish rate; null when it launched no sub-agent. */
  readonly final_finish_rate: number | null;
  /** Mean r_perf of the always-serial policy on the same tasks. */
  readonly serial_r_perf: number;
  /** Its mean critical steps. */
  readonly serial_critical_steps: number;
}

/** Mean and range of one quantity over a grid point's seeds. */
export interface Spread {
  /** Arithmetic mean. */
  readonly mean: number;
  /** Smallest value. */
  readonly min: number;
  /** Largest value. */
  readonly max: number;
  /** Sample standard deviation (0 for a single value). */
  readonly sd: number;
}

/** One grid point summarised over its seeds. */
export interface SweepPointSummary {
  /** Runs summarised. */
  readonly runs: number;
  /** Speed-up over serial (serial critical steps / the policy's). */
  readonly speedup: Spread;
  /** Final r_perf. */
  readonly r_perf: Spread;
  /** Serial baseline r_perf. */
  readonly serial_r_perf: Spread;
  /** Sub-agent finish rate over the runs that launched sub-agents; null when none did. */
  readonly finish_rate: Spread | null;
  /** Mean group width. */
  readonly mean_width: Spread;
  /** How many runs got each verdict. */
  readonly verdicts: Readonly<Record<RunVerdict, number>>;
  /** The verdict of most runs (ties go to the earlier of collapsed, spurious, parallel: the failure). */
  readonly verdict: RunVerdict;
}

/**
 * Speed-up of the trained policy over the always-serial baseline: the serial baseline's critical
 * steps over the trained policy's, on the same held-out tasks. Not the parallelism of one set of
 * episodes (their total steps over their critical steps, the parallelism `diagnose` reports).
 *
 * @throws {@link ParlInputError} when either is not a finite number > 0
 *
 * @example
 * ```ts
 * speedupOverSerial(79.9, 16.1); // 4.96…
 * ```
 */
export function speedupOverSerial(serialCriticalSteps: number, criticalSteps: number): number {
  for (const [field, v] of [
    ['serial_critical_steps', serialCriticalSteps],
    ['final_critical_steps', criticalSteps],
  ] as const) {
    if (!(Number.isFinite(v) && v > 0)) throw new ParlInputError(field, v, 'a finite number > 0');
  }
  return serialCriticalSteps / criticalSteps;
}

/**
 * The verdict on one trained policy: `collapsed` when it (almost) never launches sub-agents,
 * `spurious` when it launches groups whose sub-agents mostly finish nothing, else `parallel`.
 *
 * @example
 * ```ts
 * runVerdict({ final_mean_width: 100, final_finish_rate: 0.15 }); // 'spurious'
 * ```
 */
export function runVerdict(
  run: Pick<SweepRunNumbers, 'final_mean_width' | 'final_finish_rate'>,
  thresholds: VerdictThresholds = DEFAULT_VERDICT_THRESHOLDS,
): RunVerdict {
  if (run.final_mean_width <= thresholds.maxSerialWidth) return 'collapsed';
  if (run.final_finish_rate !== null && run.final_finish_rate < thresholds.minFinishRate) return 'spurious';
  return 'parallel';
}

/** Mean, range and sample standard deviation of a non-empty list. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new ParlInputError('values', values, 'at least one value');
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) ** 2;
  return { mean, min, max, sd: values.length > 1 ? Math.sqrt(sq / (values.length - 1)) : 0 };
}

/**
 * Summarise one grid point over its runs (one per seed).
 *
 * @throws {@link ParlInputError} for an empty list or a run whose critical steps are not > 0
 *
 * @example
 * ```ts
 * const run = { final_r_perf: 0.9, final_critical_steps: 12, final_mean_width: 4, final_finish_rate: 0.95, serial_r_perf: 0.9, serial_critical_steps: 40 };
 * summarizeSweepPoint([run, run, run]).verdict; // "parallel": most seeds learned to work in parallel
 * ```
 */
export function summarizeSweepPoint(runs: readonly SweepRunNumbers[], thresholds: VerdictThresholds = DEFAULT_VERDICT_THRESHOLDS): SweepPointSummary {
  if (runs.length === 0) throw new ParlInputError('runs', runs, 'at least one run');
  const verdicts: Record<RunVerdict, number> = { collapsed: 0, spurious: 0, parallel: 0 };
  for (const run of runs) verdicts[runVerdict(run, thresholds)]++;
  const rates = runs.flatMap((r) => (r.final_finish_rate === null ? [] : [r.final_finish_rate]));
  let verdict: RunVerdict = 'collapsed';
  for (const v of RUN_VERDICTS) if (verdicts[v] > verdicts[verdict]) verdict = v;
  return {
    runs: runs.length,
    speedup: spreadOf(runs.map((r) => speedupOverSerial(r.serial_critical_steps, r.final_critical_steps))),
    r_perf: spreadOf(runs.map((r) => r.final_r_perf)),
    serial_r_perf: spreadOf(runs.map((r) => r.serial_r_perf)),
    finish_rate: rates.length === 0 ? null : spreadOf(rates),
    mean_width: spreadOf(runs.map((r) => r.final_mean_width)),
    verdicts,
    verdict,
  };
}
