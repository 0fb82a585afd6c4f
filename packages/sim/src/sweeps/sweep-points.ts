/**
 * A sweep's results by grid point: each point's runs summarised over their seeds with core's
 * sweep statistics ({@link @parl/core!summarizeSweepPoint}), and the point to read first.
 *
 * @module
 */
import { summarizeSweepPoint, type SweepPointSummary } from '@parl/core';
import type { SweepResult } from './sweep-results.js';

/** One grid point with its summary (points without finished runs are left out). */
export interface SweepPointRow {
  /** Index of the point. */
  readonly point: number;
  /** Its values by path. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Its runs' numbers summarised. */
  readonly summary: SweepPointSummary;
  /** Its runs, seed by seed. */
  readonly runs: readonly SweepResult[];
}

/**
 * The grid points with finished runs, in point order, each summarised over its seeds.
 *
 * @example
 * ```ts
 * const outcome = await runSweep({ grid: { preset: 'parl', steps: 2, seeds: [1], config: { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, grid: { lambda1: ['constant:0', 'linear:0.3:0:2'] } }, out: 'sweeps/lambda', threads: 2 });
 * for (const row of sweepPointRows(outcome.rows)) console.log(row.params, row.summary.verdict);
 * sweepPointRows(outcome.rows).length; // 2
 * ```
 */
export function sweepPointRows(results: readonly SweepResult[]): SweepPointRow[] {
  const byPoint = new Map<number, SweepResult[]>();
  for (const r of results) {
    const list = byPoint.get(r.point) ?? [];
    list.push(r);
    byPoint.set(r.point, list);
  }
  return [...byPoint.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([point, runs]) => ({ point, params: runs[0]?.params ?? {}, runs, summary: summarizeSweepPoint(runs) }));
}

/**
 * The point to read first: the parallel one with the best mean r_perf (then speed-up); undefined
 * when none is parallel.
 *
 * @example
 * ```ts
 * const outcome = await runSweep({ grid: { preset: 'parl', steps: 2, seeds: [1], config: { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, grid: { lambda1: ['constant:0', 'linear:0.3:0:2'] } }, out: 'sweeps/lambda', threads: 2 });
 * const rows = sweepPointRows(outcome.rows);
 * const best = bestPoint(rows); // a parallel point, or undefined (2 steps rarely teach parallelism)
 * best === undefined || best.summary.verdict === 'parallel'; // true
 * bestPoint(rows.filter((r) => r.summary.verdict !== 'parallel')) === undefined; // true
 * ```
 */
export function bestPoint(rows: readonly SweepPointRow[]): SweepPointRow | undefined {
  let best: SweepPointRow | undefined;
  for (const row of rows) {
    if (row.summary.verdict !== 'parallel') continue;
    const s = row.summary;
    if (best === undefined || s.r_perf.mean > best.summary.r_perf.mean || (s.r_perf.mean === best.summary.r_perf.mean && s.speedup.mean > best.summary.speedup.mean)) best = row;
  }
  return best;
}
