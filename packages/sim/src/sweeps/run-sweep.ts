/**
 * Running a sweep (spec §9) into its folder: resolve the grid file, skip every run whose folder
 * is complete, train the rest on a local thread pool or through a Redis queue, write each run
 * folder as it arrives, and keep `sweep.json` and `results.csv` up to date. The sweep process is
 * the folder's only writer, and writes only into a folder it created ({@link claimSweepFolder}).
 * Views of the results (the CLI's HTML reports) come in through `runFiles` and `sweepFiles`.
 *
 * @module
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ParlInputError, type StepMetrics } from '@parl/core';
import { ParlIoError, describeFsError, writeFileAtomic } from '@parl/io';
import { completeRunSummary } from '../runs/run-folder-complete.js';
import { runFolderContentsOfFiles, type RunFolderContents } from '../runs/read-run-folder.js';
import { writeFolderAtomically, type TempPathRegistry } from '../runs/run-folder.js';
import { createLocalPool, type SweepRunner } from '../internal/sweeps/local-pool.js';
import type { QueueRunnerEvent } from './queue-runner.js';
import { SweepError } from './sweep-error.js';
import { claimSweepFolder } from '../internal/sweeps/sweep-folder.js';
import { recordedWallSeconds, sweepJsonText } from '../internal/sweeps/sweep-json.js';
import { resultOf, resultsCsv, type SweepResult } from './sweep-results.js';
import { resolveSweep, type ResolvedSweep, type SweepRunPlan } from './sweep-spec.js';

/** One run that left the sweep's to-do list. */
export interface SweepRunEvent {
  /** Trained now, found complete, or failed. */
  readonly kind: 'finished' | 'skipped' | 'failed';
  /** Its run id. */
  readonly runId: string;
  /** Its point's values and seed, e.g. `lambda1=constant:0 seed=2`. */
  readonly label: string;
  /** Runs done so far (this one included). */
  readonly done: number;
  /** Runs in the sweep. */
  readonly total: number;
  /** For a finished run: its speed-up over serial. */
  readonly speedup?: number;
  /** Final r_perf of a finished run. */
  readonly r_perf?: number;
  /** Seconds it took. */
  readonly wallSeconds?: number;
  /** Why it failed. */
  readonly error?: string;
}

/** A run just written, for a caller's view of it (`runFiles`). */
export interface SweepRunWritten {
  /** Its folder. */
  readonly dir: string;
  /** Its checked records. */
  readonly contents: RunFolderContents;
  /** Its `metrics.jsonl`, in order. */
  readonly metrics: readonly StepMetrics[];
}

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
  readonly onRun?: (event: SweepRunEvent) => void;
  /** Told once the runs to train are known, before any is trained (`where` is empty when every run is complete). */
  readonly onPlan?: (plan: { readonly total: number; readonly complete: number; readonly where: string }) => void;
  /** Told when the queue's Redis lost the sweep or stopped answering. */
  readonly onQueueEvent?: (event: QueueRunnerEvent) => void;
  /** More files for each run folder, written with it (e.g. the CLI's `report.html`). */
  readonly runFiles?: (run: SweepRunWritten) => Readonly<Record<string, string>>;
  /** More files for the sweep folder, written at the end (e.g. the CLI's `report.html`). */
  readonly sweepFiles?: (sweep: ResolvedSweep, rows: readonly SweepResult[]) => Readonly<Record<string, string>>;
  /** Told of temporary paths while they exist, so an interrupted sweep can remove them. */
  readonly tempPaths?: TempPathRegistry;
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
  /** Every finished run's row, in sweep order. */
  readonly rows: readonly SweepResult[];
}

/** The folder of a run inside a sweep folder. */
export function sweepRunFolder(sweepDir: string, runId: string): string {
  return join(sweepDir, 'runs', runId);
}

async function readGrid(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SweepError(`cannot read --grid ${path}: ${describeFsError(err)}`, true);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SweepError(`cannot read --grid ${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`, true);
  }
}

function labelOf(sweep: ResolvedSweep, run: SweepRunPlan): string {
  const values = sweep.parameters.map((p) => `${p}=${typeof run.params[p] === 'string' ? (run.params[p] as string) : JSON.stringify(run.params[p])}`);
  return [...values, `seed=${run.seed}`].join(' ');
}

/**
 * Run a sweep into its folder: `.parl-sweep`, `sweep.json`, `runs/<run id>/` (spec §6 run
 * folders), `results.csv` and whatever `sweepFiles` adds. Runs whose folder is complete are
 * skipped, so an interrupted sweep resumes where it stopped; a failed run is reported and the
 * others go on.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad grid file (located at it); {@link SweepError} for a folder that is not a sweep's, an unreadable grid file or a Redis that cannot be reached
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * await writeFile('sweep.json', JSON.stringify({ preset: 'parl', steps: 2, seeds: [1], config: { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, grid: { lambda1: ['constant:0', 'linear:0.3:0:2'] } }));
 * const outcome = await runSweep({ grid: 'sweep.json', out: 'sweeps/lambda', threads: 2 });
 * outcome.rows.length; // 2
 * outcome.results; // 'sweeps/lambda/results.csv'
 * ```
 */
export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  const gridPath = typeof options.grid === 'string' ? options.grid : undefined;
  if (options.out === undefined && gridPath === undefined) throw new SweepError('runSweep needs `out` when the grid is given as an object', true);
  const dir = options.out ?? join('sweeps', basename(gridPath as string, extname(gridPath as string)));
  let sweep: ResolvedSweep;
  try {
    sweep = resolveSweep(gridPath === undefined ? options.grid : await readGrid(gridPath));
  } catch (err) {
    if (err instanceof ParlInputError && gridPath !== undefined) throw err.at(`--grid ${gridPath}`);
    throw err;
  }
  await claimSweepFolder(dir, '--out');
  const wall = await recordedWallSeconds(dir);
  const results = new Map<string, SweepResult>();
  for (const run of sweep.runs) {
    const summary = await completeRunSummary(sweepRunFolder(dir, run.runId), run.runId);
    if (summary !== undefined) results.set(run.runId, resultOf(run, summary, wall.get(run.runId) ?? null));
  }
  const pending = sweep.runs.filter((r) => !results.has(r.runId));

  let writes: Promise<void> = Promise.resolve();
  const rows = (): SweepResult[] => sweep.runs.flatMap((r) => results.get(r.runId) ?? []);
  const writeIndex = (atEnd: boolean): Promise<void> => {
    const next = writes.then(async () => {
      await writeFileAtomic(join(dir, 'sweep.json'), sweepJsonText(sweep, wall), '--out');
      await writeFileAtomic(join(dir, 'results.csv'), resultsCsv(sweep.parameters, rows()), '--out');
      if (atEnd && options.sweepFiles !== undefined) {
        for (const [name, text] of Object.entries(options.sweepFiles(sweep, rows()))) await writeFileAtomic(join(dir, name), text, '--out');
      }
    });
    writes = next.catch(() => undefined);
    return next;
  };
  try {
    await mkdir(join(dir, 'runs'), { recursive: true });
    await writeIndex(false);
  } catch (err) {
    throw new SweepError(err instanceof ParlIoError ? err.message : `cannot write --out ${dir}: ${describeFsError(err)}`, false);
  }

  let done = 0;
  const total = sweep.runs.length;
  for (const run of sweep.runs) {
    if (results.has(run.runId)) options.onRun?.({ kind: 'skipped', runId: run.runId, label: labelOf(sweep, run), done: ++done, total });
  }
  const failed: { run_id: string; error: string }[] = [];
  const writeRun = async (run: SweepRunPlan, files: Readonly<Record<string, string>>): Promise<void> => {
    const runDir = sweepRunFolder(dir, run.runId);
    const metrics: StepMetrics[] = [];
    const contents = runFolderContentsOfFiles(files, (m) => metrics.push(m));
    const extra = options.runFiles?.({ dir: runDir, contents, metrics }) ?? {};
    await writeFolderAtomically(runDir, { ...files, ...extra }, { force: true, ...(options.tempPaths === undefined ? {} : { tempPaths: options.tempPaths }) });
  };
  if (pending.length > 0) {
    const runner: SweepRunner & { release?(runId: string): Promise<void> } =
      options.queue === undefined
        ? createLocalPool(options.threads)
        : (await import('./queue-runner.js')).createQueueRunner(options.queue, {
            ...(options.queueName === undefined ? {} : { name: options.queueName }),
            ...(options.onQueueEvent === undefined ? {} : { onEvent: options.onQueueEvent }),
            isComplete: async (runId) => results.has(runId) || (await completeRunSummary(sweepRunFolder(dir, runId), runId)) !== undefined,
          });
    options.onPlan?.({ total, complete: total - pending.length, where: runner.where });
    try {
      await Promise.all(
        pending.map(async (run) => {
          try {
            const out = await runner.run({ runId: run.runId, config: run.config });
            await writeRun(run, out.files);
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
    rows: rows(),
  };
}
