/**
 * `results.csv` of a sweep (spec §9): one row per finished run — the swept parameters, `seed`,
 * then the run's numbers — for notebooks.
 *
 * @module
 */
import { stringify } from 'csv-stringify/sync';
import { speedupOverSerial, type RunSummary, type SweepRunNumbers } from '@parl/core';

/** One cell: numbers as JSON writes them, a λ schedule object as JSON, null (none, unknown) as empty. */
function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One CSV row with its line ending, RFC 4180 quoting (csv-stringify). */
function csvRow(cells: readonly unknown[]): string {
  return stringify([cells.map(csvCell)]);
}

/** The columns after the parameters and `seed`, in spec §9's order. */
export const RESULT_COLUMNS = [
  'final_r_perf',
  'final_critical_steps',
  'final_mean_width',
  'final_finish_rate',
  'serial_r_perf',
  'serial_critical_steps',
  'speedup',
  'wall_s',
] as const;

/** One finished run of a sweep. */
export interface SweepResult extends SweepRunNumbers {
  /** Its run id (its folder under `runs/`). */
  readonly run_id: string;
  /** Index of its grid point. */
  readonly point: number;
  /** The swept values, by path. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Its seed. */
  readonly seed: number;
  /** Speed-up over serial. */
  readonly speedup: number;
  /** Seconds its training took, where known (null for a run found complete with no recorded time). */
  readonly wall_s: number | null;
}

/** A result row from a run's summary. */
export function resultOf(
  plan: { readonly runId: string; readonly point: number; readonly params: Readonly<Record<string, unknown>>; readonly seed: number },
  summary: RunSummary,
  wallSeconds: number | null,
): SweepResult {
  return {
    run_id: plan.runId,
    point: plan.point,
    params: plan.params,
    seed: plan.seed,
    final_r_perf: summary.final.r_perf,
    final_critical_steps: summary.final.critical_steps,
    final_mean_width: summary.final.mean_width,
    final_finish_rate: summary.final.finish_rate,
    serial_r_perf: summary.baseline_serial.r_perf,
    serial_critical_steps: summary.baseline_serial.critical_steps,
    speedup: speedupOverSerial(summary.baseline_serial.critical_steps, summary.final.critical_steps),
    wall_s: wallSeconds === null ? null : Math.round(wallSeconds * 1000) / 1000,
  };
}

/**
 * The text of `results.csv`: a header of the parameters, `seed` and {@link RESULT_COLUMNS}, then
 * one row per result in the order given. A λ schedule is written in the form the grid file gave it.
 */
export function resultsCsv(parameters: readonly string[], results: readonly SweepResult[]): string {
  let text = csvRow([...parameters, 'seed', ...RESULT_COLUMNS]);
  for (const r of results) {
    text += csvRow([...parameters.map((p) => r.params[p]), r.seed, ...RESULT_COLUMNS.map((c) => r[c])]);
  }
  return text;
}
