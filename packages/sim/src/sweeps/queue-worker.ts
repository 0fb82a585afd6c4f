/**
 * `parl worker`'s engine: a BullMQ worker that takes sweep jobs from the queue and trains each in
 * a local thread pool. Training runs in the pool's threads, so the main thread stays free to renew
 * the job locks; a worker that dies stops renewing them, and after the stall time another
 * worker's stalled-job check puts its runs back on the queue for someone else.
 *
 * @module
 */
import { UnrecoverableError, Worker } from 'bullmq';
import type { SweepRunOutput, SweepTask } from './sweep-job.js';
import { createLocalPool, defaultThreads } from './local-pool.js';
import { DEFAULT_QUEUE_NAME, redisConnection, shownQueueUrl } from './queue-connection.js';
import { SWEEP_JOB_NAME } from './queue-runner.js';

/** Default seconds without a lock renewal after which a run counts as stalled and is retried. */
export const DEFAULT_STALLED_AFTER_S = 30;

/** How often a job may stall (its worker died) before it counts as failed. */
export const MAX_STALLS = 3;

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** The Redis URL. */
  readonly url: string;
  /** The queue (default {@link DEFAULT_QUEUE_NAME}). */
  readonly name?: string;
  /** Runs at a time, each in its own thread (default: one per core). */
  readonly threads?: number;
  /** Seconds without a lock renewal after which another worker retries the run (default 30). */
  readonly stalledAfterSeconds?: number;
  /** Told when a run starts, ends or fails. */
  readonly onEvent?: (event: QueueWorkerEvent) => void;
}

/** What a worker reports. */
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
 * Start taking sweep runs from a queue. Jobs of another name are failed without retry.
 *
 * @example
 * ```ts
 * const worker = startQueueWorker({ url: 'redis://127.0.0.1:6379', threads: 2 });
 * process.once('SIGTERM', () => void worker.close());
 * ```
 */
export function startQueueWorker(options: QueueWorkerOptions): QueueWorkerHandle {
  const name = options.name ?? DEFAULT_QUEUE_NAME;
  const threads = options.threads ?? defaultThreads();
  const stalledMs = Math.round((options.stalledAfterSeconds ?? DEFAULT_STALLED_AFTER_S) * 1000);
  const pool = createLocalPool(threads);
  const emit = options.onEvent ?? (() => undefined);
  // BullMQ leaves a connection it was handed open: it is closed here, in close().
  const connection = redisConnection(options.url, (error) => emit({ kind: 'error', error: `Redis at ${shownQueueUrl(options.url)}: ${error}` }));
  const worker = new Worker<SweepTask, SweepRunOutput>(
    name,
    async (job) => {
      if (job.name !== SWEEP_JOB_NAME) throw new UnrecoverableError(`not a sweep run: job ${job.id ?? '?'} is named ${job.name}`);
      emit({ kind: 'started', runId: job.data.runId });
      const out = await pool.run(job.data);
      emit({ kind: 'finished', runId: out.runId, wallSeconds: out.wallSeconds });
      return out;
    },
    {
      connection,
      concurrency: threads,
      lockDuration: stalledMs,
      stalledInterval: Math.max(500, Math.round(stalledMs / 2)),
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on('failed', (job, err) => emit({ kind: 'failed', runId: job?.id ?? '?', error: err.message }));
  worker.on('error', () => undefined); // connection errors are reported once each by the connection above
  return {
    where: `${shownQueueUrl(options.url)}, queue ${name}, ${pool.where}`,
    async close() {
      await worker.close();
      await pool.close();
      connection.disconnect();
    },
  };
}
