/**
 * The sweep's jobs on a `parl worker`: a handler for `@parl/io/queue`'s worker loop that trains
 * each run in a local thread pool (made when the first run comes, so a worker that only takes
 * other jobs starts no thread). Training runs in the pool's threads, so the main thread stays free
 * to renew the job locks.
 *
 * @module
 */
import { DEFAULT_QUEUE_NAME, startQueueWorker as startJobQueueWorker, type QueueJobHandler } from '@parl/io/queue';
import type { SweepTask } from '../internal/sweeps/sweep-job.js';
import { createLocalPool, defaultThreads, type SweepRunner } from '../internal/sweeps/local-pool.js';
import { SWEEP_JOB_NAME } from './queue-runner.js';

/**
 * The handler of sweep jobs ({@link SWEEP_JOB_NAME}): trains each run in a pool of `threads`
 * threads (runs beyond that wait in the pool) and returns the run folder's files.
 *
 * @example
 * ```ts
 * import { startQueueWorker } from '@parl/io/queue';
 * import { SWEEP_JOB_NAME } from './queue-runner.js';
 * const url = redisUrl; // a Redis server, such as 'redis://127.0.0.1:6379'
 * const worker = startQueueWorker({ url, name: 'parl-sweep', concurrency: 2, handlers: { [SWEEP_JOB_NAME]: sweepJobHandler(2) } });
 * await worker.close();
 * ```
 */
export function sweepJobHandler(threads: number = defaultThreads()): QueueJobHandler {
  let pool: SweepRunner | undefined;
  return {
    label: (_data, jobId) => `run ${jobId}`,
    run: (data) => (pool ??= createLocalPool(threads)).run(data as SweepTask),
    async close() {
      await pool?.close();
    },
  };
}

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** The Redis URL. */
  readonly url: string;
  /** The queue (default `parl-sweep`). */
  readonly name?: string;
  /** Runs at a time, each in its own thread (default: one per core). */
  readonly threads?: number;
  /** Seconds without a lock renewal after which another worker retries the run (default 30). */
  readonly stalledAfterSeconds?: number;
  /** Told when a run starts, ends or fails. */
  readonly onEvent?: (event: QueueWorkerEvent) => void;
}

/** What a sweep worker reports. */
export type QueueWorkerEvent =
  | { readonly kind: 'started'; readonly runId: string }
  | { readonly kind: 'finished'; readonly runId: string; readonly wallSeconds: number }
  | { readonly kind: 'failed'; readonly runId: string; readonly error: string }
  | { readonly kind: 'error'; readonly error: string };

/** A running worker. */
export interface QueueWorkerHandle {
  /** Where it takes runs from, for messages. */
  readonly where: string;
  /** Stop taking runs, wait for those in progress, release the threads and the connection. */
  close(): Promise<void>;
}

/**
 * A worker that takes only sweep runs (`parl worker` takes swarm rollouts too, with
 * `@parl/io/queue` and {@link sweepJobHandler}). Jobs of another name are failed without retry.
 *
 * @example
 * ```ts
 * const url = redisUrl; // a Redis server, such as 'redis://127.0.0.1:6379'
 * const worker = startQueueWorker({ url, threads: 2 });
 * const stop = () => void worker.close();
 * process.once('SIGTERM', stop);
 * // … until the process is told to stop; here, at once:
 * process.off('SIGTERM', stop);
 * await worker.close();
 * ```
 */
export function startQueueWorker(options: QueueWorkerOptions): QueueWorkerHandle {
  const threads = options.threads ?? defaultThreads();
  const emit = options.onEvent ?? (() => undefined);
  const runId = (label: string): string => label.replace(/^run /, '');
  const worker = startJobQueueWorker({
    url: options.url,
    name: options.name ?? DEFAULT_QUEUE_NAME,
    concurrency: threads,
    handlers: { [SWEEP_JOB_NAME]: sweepJobHandler(threads) },
    ...(options.stalledAfterSeconds === undefined ? {} : { stalledAfterSeconds: options.stalledAfterSeconds }),
    onEvent: (e) => {
      if (e.kind === 'error') emit(e);
      else if (e.kind === 'started') emit({ kind: 'started', runId: runId(e.label) });
      else if (e.kind === 'finished') emit({ kind: 'finished', runId: runId(e.label), wallSeconds: e.wallSeconds });
      else emit({ kind: 'failed', runId: runId(e.label), error: e.error });
    },
  });
  return { where: `${worker.where}, ${threads} thread${threads === 1 ? '' : 's'}`, close: () => worker.close() };
}
