/**
 * Running a sweep (spec §9) into its folder: resolve the grid file, skip every run whose folder
 * is complete, train the rest on a local thread pool or through a Redis queue, write each run
 * folder as it arrives, and keep `sweep.json`, `results.csv` and `report.html` up to date. The
 * sweep process is the folder's only writer.
 *
 * @module
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { resolveSweep, runIdOf, type ResolvedSweep, type SweepRunPlan, type TrainingConfig } from '@parl/sim';
import { CliError, describeFsError } from '../errors.js';
import { writeFileAtomic } from '@parl/io';
import type { SweepProgressEvent } from '../io/sweep-progress.js';
import { buildSweepReport } from '../report/sweep-report.js';
import { createLocalPool, type SweepRunner } from './local-pool.js';
import { resultOf, resultsCsv, type SweepResult } from './results.js';
import { completeRunSummary, runFolderOf, writeSweepRunFolder } from './run-folder-writer.js';
import { recordedWallSeconds, sweepJsonText } from './sweep-json.js';

/** Options of {@link runSweep}. */
export interface SweepOptions {
  /** The grid file (spec §9): a path to its JSON, or the parsed object. */
  readonly grid: string | Readonly<Record<string, unknown>>;
  /** The sweep folder (default `sweeps/<grid file name without .json>`; required with a parsed grid). */
  readonly out?: string;
  /** Local worker threads (default: one per core). Ignored with `queue`. */
  readonly threads?: number;
  /** A Redis URL: put the runs on a BullMQ queue for `parl worker` processes instead of training here. */
  readonly queue?: string;
  /** The queue's name (default `parl-sweep`). */
  readonly queueName?: string;
  /** Told of each run that is done (trained, skipped or failed). */
  readonly onRun?: (event: SweepProgressEvent) => void;
  /** Told once the runs to train are known, before any is trained (`where` is empty when every run is complete). */
  readonly onPlan?: (plan: { readonly total: number; readonly complete: number; readonly where: string }) => void;
}

/** What {@link runSweep} did. */
export interface SweepOutcome {
  /** The sweep folder. */
  readonly dir: string;
  /** Runs in the sweep. */
  readonly runs: number;
  /** Runs trained now. */
  readonly trained: number;
  /** Runs found complete and skipped. */
  readonly skipped: number;
  /** Runs that failed, with the reason. */
  readonly failed: readonly { readonly run_id: string; readonly error: string }[];
  /** `results.csv`. */
  readonly results: string;
  /** `report.html`. */
  readonly report: string;
  /** Every finished run's row, in sweep order. */
  readonly rows: readonly SweepResult[];
}

async function readGrid(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read --grid ${path}: ${describeFsError(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`cannot read --grid ${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Refuse a folder that holds something other than a sweep. */
async function checkSweepFolder(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return;
    throw new CliError(`cannot use --out ${dir}: ${describeFsError(err)}`);
  }
  if (entries.length === 0 || entries.includes('sweep.json')) return;
  throw new CliError(`--out ${dir} holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''} but no sweep.json: choose a new folder or an earlier sweep's`, 2);
}

function labelOf(sweep: ResolvedSweep, run: SweepRunPlan): string {
  const values = sweep.parameters.map((p) => `${p}=${typeof run.params[p] === 'string' ? (run.params[p] as string) : JSON.stringify(run.params[p])}`);
  return [...values, `seed=${run.seed}`].join(' ');
}

function sameConfig(runId: string): (config: unknown) => boolean {
  return (config) => {
    try {
      return runIdOf(config as TrainingConfig) === runId;
    } catch {
      return false;
    }
  };
}

/**
 * Run a sweep into its folder: `sweep.json`, `runs/<run id>/` (spec §6 run folders),
 * `results.csv` and `report.html`. Runs whose folder is complete are skipped, so an interrupted
 * sweep resumes where it stopped; a failed run is reported and the others go on.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad grid file (located at it); {@link CliError} for a folder that is not a sweep's
 *
 * @example
 * ```ts
 * const outcome = await runSweep({ grid: 'sweep.json', out: 'sweeps/lambda', threads: 2 });
 * outcome.report; // 'sweeps/lambda/report.html'
 * ```
 */
export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  const gridPath = typeof options.grid === 'string' ? options.grid : undefined;
  if (options.out === undefined && gridPath === undefined) throw new CliError('runSweep needs `out` when the grid is given as an object', 2);
  const dir = options.out ?? join('sweeps', basename(gridPath as string, extname(gridPath as string)));
  let sweep: ResolvedSweep;
  try {
    sweep = resolveSweep(gridPath === undefined ? options.grid : await readGrid(gridPath));
  } catch (err) {
    if (err instanceof ParlInputError && gridPath !== undefined) throw err.at(`--grid ${gridPath}`);
    throw err;
  }
  await checkSweepFolder(dir);
  const wall = await recordedWallSeconds(dir);
  const results = new Map<string, SweepResult>();
  for (const run of sweep.runs) {
    const summary = await completeRunSummary(runFolderOf(dir, run.runId), sameConfig(run.runId));
    if (summary !== undefined) results.set(run.runId, resultOf(run, summary, wall.get(run.runId) ?? null));
  }
  const pending = sweep.runs.filter((r) => !results.has(r.runId));

  let writes: Promise<void> = Promise.resolve();
  const rows = (): SweepResult[] => sweep.runs.flatMap((r) => results.get(r.runId) ?? []);
  const writeIndex = (withReport: boolean): Promise<void> => {
    const next = writes.then(async () => {
      await writeFileAtomic(join(dir, 'sweep.json'), sweepJsonText(sweep, wall), '--out');
      await writeFileAtomic(join(dir, 'results.csv'), resultsCsv(sweep.parameters, rows()), '--out');
      if (withReport) {
        const input = { parameters: sweep.parameters, points: sweep.points, plannedRuns: sweep.runs.length, preset: sweep.spec.preset, ...(sweep.spec.steps === undefined ? {} : { steps: sweep.spec.steps }) };
        await writeFileAtomic(join(dir, 'report.html'), buildSweepReport(input, rows()), '--out');
      }
    });
    writes = next.catch(() => undefined);
    return next;
  };
  try {
    await mkdir(join(dir, 'runs'), { recursive: true });
  } catch (err) {
    throw new CliError(`cannot write --out ${dir}: ${describeFsError(err)}`, 1);
  }
  await writeIndex(false);

  let done = 0;
  const total = sweep.runs.length;
  for (const run of sweep.runs) {
    const r = results.get(run.runId);
    if (r !== undefined) options.onRun?.({ kind: 'skipped', runId: run.runId, label: labelOf(sweep, run), done: ++done, total });
  }
  const failed: { run_id: string; error: string }[] = [];
  if (pending.length > 0) {
    const runner: SweepRunner & { release?(runId: string): Promise<void> } =
      options.queue === undefined ? createLocalPool(options.threads) : (await import('./queue-runner.js')).createQueueRunner(options.queue, options.queueName);
    options.onPlan?.({ total, complete: total - pending.length, where: runner.where });
    try {
      await Promise.all(
        pending.map(async (run) => {
          try {
            const out = await runner.run({ runId: run.runId, config: run.config });
            await writeSweepRunFolder(runFolderOf(dir, run.runId), out.files);
            wall.set(run.runId, Math.round(out.wallSeconds * 1000) / 1000);
            const row = resultOf(run, out.summary, out.wallSeconds);
            results.set(run.runId, row);
            await writeIndex(false);
            await runner.release?.(run.runId);
            options.onRun?.({ kind: 'finished', runId: run.runId, label: labelOf(sweep, run), done: ++done, total, speedup: row.speedup, r_perf: row.final_r_perf, wallSeconds: out.wallSeconds });
          } catch (err) {
            const error = err instanceof Error ? err.message : String(err);
            failed.push({ run_id: run.runId, error });
            options.onRun?.({ kind: 'failed', runId: run.runId, label: labelOf(sweep, run), done: ++done, total, error });
          }
        }),
      );
    } finally {
      await runner.close();
    }
  } else {
    options.onPlan?.({ total, complete: total, where: '' });
  }
  await writeIndex(true);
  return {
    dir,
    runs: total,
    trained: pending.length - failed.length,
    skipped: total - pending.length,
    failed,
    results: join(dir, 'results.csv'),
    report: join(dir, 'report.html'),
    rows: rows(),
  };
}
