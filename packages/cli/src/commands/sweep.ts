/**
 * `parl sweep`: train every point × seed of a grid file (spec §9) on a local thread pool (one
 * thread per core) or through a Redis queue (`--queue`), with a progress bar over runs, into a
 * sweep folder that a second invocation resumes.
 *
 * @module
 */
import { RUN_VERDICTS } from '@parl/core';
import { CliError } from '../errors.js';
import type { CliIo } from '../io/cli-io.js';
import { createSweepProgress } from '../io/sweep-progress.js';
import { sweepPointRows } from '../report/sweep-report.js';
import { checkQueueUrl } from '../sweep/queue-connection.js';
import { runSweep, type SweepOutcome } from '../sweep/run-sweep.js';

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

/** What {@link sweepCommand} prints with `--json`: the outcome without its rows, plus the point verdicts. */
export interface SweepCommandResult extends Omit<SweepOutcome, 'rows'> {
  /** How many grid points got each verdict. */
  readonly verdicts: Readonly<Record<string, number>>;
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
  if (options.queue !== undefined) checkQueueUrl(options.queue);
  if (options.queue !== undefined && options.threads !== undefined) throw new CliError('--threads and --queue exclude each other: with --queue, each parl worker sets its own --threads', 2);
  const progress = createSweepProgress(io, 'parl sweep', options.quiet === true);
  let outcome: SweepOutcome;
  try {
    outcome = await runSweep({
      grid: options.grid,
      ...(options.out === undefined ? {} : { out: options.out }),
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.queue === undefined ? {} : { queue: options.queue }),
      ...(options.queueName === undefined ? {} : { queueName: options.queueName }),
      onPlan: (p) => {
        if (options.quiet === true) return;
        io.stderr.write(p.where === '' ? `parl sweep: all ${p.total} runs already complete\n` : `parl sweep: ${p.total} runs, ${p.complete} already complete; training on ${p.where}\n`);
      },
      onRun: (e) => progress.update(e),
    });
  } finally {
    progress.stop();
  }
  const verdicts: Record<string, number> = Object.fromEntries(RUN_VERDICTS.map((v) => [v, 0]));
  for (const row of sweepPointRows(outcome.rows)) verdicts[row.summary.verdict] = (verdicts[row.summary.verdict] ?? 0) + 1;
  const { rows: _rows, ...rest } = outcome;
  const result = { ...rest, verdicts };
  if (outcome.failed.length > 0) {
    const first = outcome.failed[0];
    throw new CliError(
      `${outcome.failed.length} of ${outcome.runs} runs failed (first: ${first?.run_id ?? '?'}: ${first?.error ?? '?'}); the others are in ${outcome.dir}: run the same command again to retry the failed ones`,
      1,
    );
  }
  return result;
}
