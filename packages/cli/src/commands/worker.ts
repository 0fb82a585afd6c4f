/**
 * `parl worker`: with `@parl/sim`'s queue worker, take sweep runs from a Redis queue (BullMQ) that `parl sweep --queue` fills,
 * train each in a local thread, and send its run folder back through the queue. Runs until it is
 * stopped; a worker that stops or dies mid-run has its runs retried by another after
 * `--stalled-after` seconds.
 *
 * @module
 */
import { checkQueueUrl, startQueueWorker, SweepError, type QueueWorkerHandle } from '@parl/sim/queue';
import { CliError } from '../errors.js';
import { logLine, type CliIo } from '../io/cli-io.js';
import { formatNumber } from '../report/format-number.js';

/** Options of {@link workerCommand}, one per flag. */
export interface WorkerCommandOptions {
  /** `--queue URL`: the Redis of the sweep queue. */
  readonly queue: string;
  /** `--queue-name NAME` (default `parl-sweep`). */
  readonly queueName?: string;
  /** `--threads N`: runs at a time (default: one per core). */
  readonly threads?: number;
  /** `--stalled-after S`: seconds without a lock renewal before a run is retried elsewhere (default 30). */
  readonly stalledAfter?: number;
  /** `--quiet`: no line per run on stderr. */
  readonly quiet?: boolean;
}

/**
 * Start a worker; logs a line per run started, finished or failed on stderr. Resolves with the
 * running worker; it runs until its `close()` or the process ends.
 *
 * @throws {@link CliError} for a `--queue` that is not a Redis URL
 *
 * @example
 * ```ts
 * const worker = await workerCommand({ queue: 'redis://10.0.0.5:6379', threads: 4 }, processIo());
 * ```
 */
export async function workerCommand(options: WorkerCommandOptions, io: CliIo): Promise<QueueWorkerHandle> {
  try {
    checkQueueUrl(options.queue);
  } catch (err) {
    throw err instanceof SweepError ? new CliError(err.message, 2) : err;
  }
  const quiet = options.quiet === true;
  const worker = startQueueWorker({
    url: options.queue,
    ...(options.queueName === undefined ? {} : { name: options.queueName }),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.stalledAfter === undefined ? {} : { stalledAfterSeconds: options.stalledAfter }),
    onEvent: (e) => {
      if (e.kind === 'error') logLine(io, `parl worker: ${e.error}`);
      else if (e.kind === 'failed') logLine(io, `parl worker: run ${e.runId} failed: ${e.error}`);
      else if (!quiet && e.kind === 'started') logLine(io, `parl worker: run ${e.runId} started`);
      else if (!quiet && e.kind === 'finished') logLine(io, `parl worker: run ${e.runId} finished in ${formatNumber(e.wallSeconds, 3)}s`);
    },
  });
  if (!quiet) logLine(io, `parl worker: taking runs from ${worker.where}; stop with Ctrl-C (runs in progress go back on the queue)`);
  return worker;
}
