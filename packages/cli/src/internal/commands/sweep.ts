/**
 * `parl sweep`: train every point × seed of a grid file (spec §9) with `@parl/sim`'s sweep
 * engine — on a local thread pool or through a Redis queue (`--queue`) — showing progress on
 * stderr and writing the run and sweep reports into the sweep folder.
 *
 * @module
 */
import { join } from 'node:path';
import { RUN_VERDICTS } from '@parl/core';
import { checkQueueUrl } from '@parl/io';
import { bestPoint, runSweep, SweepError, sweepPointRows, type SweepOutcome } from '@parl/sim';
import { CliError } from '../../errors.js';
import { logLine, type CliIo } from '../../terminal/cli-io.js';
import { tempPaths } from '@parl/io';
import { createSweepProgress } from '../terminal/sweep-progress.js';
import { buildRunReport } from '../report/build-report.js';
import { runDataOf } from '../report/run-folder.js';
import { buildSweepReport } from '../report/sweep-report.js';

/** Options of {@link sweepCommand}, one per flag. */
export interface SweepCommandOptions {
  /** `--grid FILE`: the grid file. */
  readonly grid: string;
  /** `--out DIR`: the sweep folder (default `sweeps/<grid file name>`). */
  readonly out?: string;
  /** `--threads N`: local worker threads (default: one per core). */
  readonly threads?: number;
  /** `--queue URL`: put the runs on a BullMQ queue in Redis for `parl worker` processes. */
  readonly queue?: string;
  /** `--queue-name NAME` (default `parl-sweep`). */
  readonly queueName?: string;
  /** `--quiet`: no progress on stderr. */
  readonly quiet?: boolean;
}

/** What {@link sweepCommand} prints with `--json`: the outcome without its rows, plus the report and the point verdicts. */
export interface SweepCommandResult extends Omit<SweepOutcome, 'rows'> {
  /** The sweep's `report.html`. */
  readonly report: string;
  /** How many grid points got each verdict. */
  readonly verdicts: Readonly<Record<string, number>>;
}

/** The sweep engine's own errors as the CLI's: exit 2 when the input is at fault, else 1. */
function asCliError(err: unknown): unknown {
  return err instanceof SweepError ? new CliError(err.message, err.usage ? 2 : 1) : err;
}

/**
 * Run a sweep from its flags; progress goes to stderr. Failed runs leave the others written and
 * end the command with exit code 1 after everything else is written.
 *
 * @throws {@link CliError} (exit code 1) when a run failed; (2) for bad flags or folders
 * @throws {@link @parl/core!ParlInputError} for a bad grid file
 *
 * @example
 * ```ts
 * const result = await sweepCommand({ grid: 'sweep.json', threads: 2 }, processIo());
 * ```
 */
export async function sweepCommand(options: SweepCommandOptions, io: CliIo): Promise<SweepCommandResult> {
  if (options.queue !== undefined && options.threads !== undefined) throw new CliError('--threads and --queue exclude each other: with --queue, each parl worker sets its own --threads', 2);
  try {
    if (options.queue !== undefined) checkQueueUrl(options.queue);
  } catch (err) {
    throw asCliError(err);
  }
  const quiet = options.quiet === true;
  const progress = createSweepProgress(io, 'parl sweep', quiet);
  let outcome: SweepOutcome;
  try {
    outcome = await runSweep({
      grid: options.grid,
      ...(options.out === undefined ? {} : { out: options.out }),
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.queue === undefined ? {} : { queue: options.queue }),
      ...(options.queueName === undefined ? {} : { queueName: options.queueName }),
      tempPaths,
      onPlan: (p) => {
        if (!quiet) io.stderr.write(p.where === '' ? `parl sweep: all ${p.total} runs already complete\n` : `parl sweep: ${p.total} runs, ${p.complete} already complete; training on ${p.where}\n`);
      },
      onRun: (e) => progress.update(e),
      onQueueEvent: (e) =>
        logLine(
          io,
          e.kind === 'redis-lost'
            ? `parl sweep: Redis lost the sweep's queue (restarted empty?): ${e.requeued} run${e.requeued === 1 ? '' : 's'} put on the queue again; runs already written stay`
            : `parl sweep: Redis has not answered for ${e.seconds} s; waiting`,
        ),
      runFiles: (run) => ({ 'report.html': buildRunReport(runDataOf(run.dir, run.contents.config, run.metrics, run.contents.summary)) }),
      sweepFiles: (sweep, results) => {
        const rows = sweepPointRows(results);
        const input = { parameters: sweep.parameters, points: sweep.points, plannedRuns: sweep.runs.length, preset: sweep.spec.preset, ...(sweep.spec.steps === undefined ? {} : { steps: sweep.spec.steps }) };
        return { 'report.html': buildSweepReport(input, rows, bestPoint(rows)) };
      },
    });
  } catch (err) {
    throw asCliError(err);
  } finally {
    progress.stop();
  }
  const verdicts: Record<string, number> = Object.fromEntries(RUN_VERDICTS.map((v) => [v, 0]));
  for (const row of sweepPointRows(outcome.rows)) verdicts[row.summary.verdict] = (verdicts[row.summary.verdict] ?? 0) + 1;
  const { rows: _rows, ...rest } = outcome;
  const result = { ...rest, report: join(outcome.dir, 'report.html'), verdicts };
  if (outcome.failed.length > 0) {
    const first = outcome.failed[0];
    throw new CliError(
      `${outcome.failed.length} of ${outcome.runs} runs failed (first: ${first?.run_id ?? '?'}: ${first?.error ?? '?'}); the others are in ${outcome.dir}: run the same command again to retry the failed ones`,
      1,
    );
  }
  return result;
}
