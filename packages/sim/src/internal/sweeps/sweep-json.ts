/**
 * `sweep.json` of a sweep folder (spec §9): the resolved grid — the grid file as validated, the
 * swept parameters, and every run with its id, point, seed and values — plus each run's training
 * time once it has run, which a resumed sweep carries over into `results.csv`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedSweep } from '../../sweeps/sweep-spec.js';

/** One run in `sweep.json`. */
export interface SweepJsonRun {
  /** Its folder under `runs/`. */
  readonly run_id: string;
  /** Its grid point (index into `points`). */
  readonly point: number;
  /** Its seed. */
  readonly seed: number;
  /** Seconds its training took, null until it has run here. */
  readonly wall_s: number | null;
}

/** The content of `sweep.json`. */
export interface SweepJson {
  /** The grid file, validated (defaults filled in). */
  readonly spec: ResolvedSweep['spec'];
  /** The swept paths: the parameter columns of `results.csv`. */
  readonly parameters: readonly string[];
  /** Each point's values by path. */
  readonly points: ResolvedSweep['points'];
  /** Every run, point by point. */
  readonly runs: readonly SweepJsonRun[];
}

/** The `sweep.json` text of a resolved sweep with the training times known so far. */
export function sweepJsonText(sweep: ResolvedSweep, wallSeconds: ReadonlyMap<string, number>): string {
  const json: SweepJson = {
    spec: sweep.spec,
    parameters: sweep.parameters,
    points: sweep.points,
    runs: sweep.runs.map((r) => ({ run_id: r.runId, point: r.point, seed: r.seed, wall_s: wallSeconds.get(r.runId) ?? null })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** Training times recorded by an earlier `sweep.json` in `dir` (empty when there is none or it is unreadable). */
export async function recordedWallSeconds(dir: string): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  try {
    const json = JSON.parse(await readFile(join(dir, 'sweep.json'), 'utf8')) as { runs?: unknown };
    if (Array.isArray(json.runs)) {
      for (const run of json.runs as { run_id?: unknown; wall_s?: unknown }[]) {
        if (typeof run.run_id === 'string' && typeof run.wall_s === 'number' && Number.isFinite(run.wall_s)) times.set(run.run_id, run.wall_s);
      }
    }
  } catch {
    // No earlier sweep here, or a damaged file: the times are simply unknown.
  }
  return times;
}
