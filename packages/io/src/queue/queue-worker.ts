/**
 * The worker's side of a job queue (BullMQ in Redis), as `parl worker` runs it: take jobs, hand
 * each to the handler its job name selects, send the result back as the job's return value. The
 * handlers' work must leave the main thread free (threads, or asynchronous I/O) so that it keeps
 * renewing the job locks; a worker that dies stops renewing them, and after the stall time another
 * worker's stalled-job check puts its jobs back on the queue for someone else.
 *
 * @module
 */
import { UnrecoverableError, Worker } from 'bullmq';
import { UnrunnableJobError } from './queue-error.js';
import { redisConnection } from './redis-connection.js';
import { checkQueueUrl, shownQueueUrl } from './queue-url.js';
import { DEFAULT_STALLED_AFTER_S } from './queue-options.js';

export { DEFAULT_STALLED_AFTER_S };

/** How often a job may stall (its worker died) before it counts as failed. */
export const MAX_STALLS = 3;

/** Runs the jobs of one name. */
export interface QueueJobHandler {
  /** A short label of one job for log lines (`run 0123abcd…`, `rollout wide-1/0`). */
  label(data: unknown, jobId: string): string;
  /**
   * Run one job; what it resolves with is sent back to the coordinator (JSON).
   *
   * @throws {@link UnrunnableJobError} to fail the job at once, without a retry
   */
  run(data: unknown): Promise<unknown>;
  /** Release what the handler holds (threads, connections). */
  close?(): Promise<void>;
}

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** The Redis URL. */
  readonly url: string;
  /** The queue's name in Redis. */
  readonly name: string;
  /** The handler of each job name; a job of any other name fails at once with `unknownJob`'s line. */
  readonly handlers: Readonly<Record<string, QueueJobHandler>>;
  /** The line a job of an unknown name fails with (default: says its name and those this worker runs). */
  readonly unknownJob?: (jobName: string) => string;
  /** Jobs at a time (≥ 1). */
  readonly concurrency: number;
  /** Seconds without a lock renewal after which another worker retries the job (default {@link DEFAULT_STALLED_AFTER_S}). */
  readonly stalledAfterSeconds?: number;
  /** Told when a job starts, ends or fails, and of connection errors. */
  readonly onEvent?: (event: QueueWorkerEvent) => void;
}

/** What a worker reports. */
export type QueueWorkerEvent =
  | { readonly kind: 'started'; readonly jobName: string; readonly label: string }
  | { readonly kind: 'finished'; readonly jobName: string; readonly label: string; readonly wallSeconds: number }
  | { readonly kind: 'failed'; readonly jobName: string; readonly label: string; readonly error: string }
  | { readonly kind: 'error'; readonly error: string };

/** A running worker. */
export interface QueueWorkerHandle {
  /** Where it takes jobs from, for messages. */
  readonly where: string;
  /** Stop taking jobs, wait for those in progress, release the handlers and the connection. */
  close(): Promise<void>;
}

/**
 * Start taking jobs from a queue.
 *
 * @throws {@link @parl/core!ParlInputError} for a `url` that is not a Redis URL
 *
 * @example
 * ```ts
 * const handler = { label: (data: unknown) => `train ${JSON.stringify(data)}`, run: async (data: unknown) => data };
 * const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
 * const worker = startQueueWorker({ url, name: 'parl-sweep', concurrency: 2, handlers: { train: handler } });
 * process.once('SIGTERM', () => void worker.close());
 * await worker.close();
 * ```
 */
export function startQueueWorker(options: QueueWorkerOptions): QueueWorkerHandle {
  checkQueueUrl(options.url);
  const stalledMs = Math.round((options.stalledAfterSeconds ?? DEFAULT_STALLED_AFTER_S) * 1000);
  const emit = options.onEvent ?? (() => undefined);
  const known = Object.keys(options.handlers);
  const unknownJob = options.unknownJob ?? ((jobName: string) => `this worker runs ${known.join(' and ')} jobs, not ${jobName}`);
  const labels = new Map<string, string>();
  // BullMQ leaves a connection it was handed open: it is closed here, in close().
  const connection = redisConnection(options.url, (error) => emit({ kind: 'error', error: `Redis at ${shownQueueUrl(options.url)}: ${error}` }));
  const worker = new Worker(
    options.name,
    async (job) => {
      const handler = Object.hasOwn(options.handlers, job.name) ? options.handlers[job.name] : undefined;
      if (handler === undefined) throw new UnrecoverableError(unknownJob(job.name));
      const label = handler.label(job.data, job.id ?? '?');
      labels.set(job.id ?? '?', label);
      emit({ kind: 'started', jobName: job.name, label });
      const started = performance.now();
      try {
        const out = await handler.run(job.data);
        emit({ kind: 'finished', jobName: job.name, label, wallSeconds: (performance.now() - started) / 1000 });
        return out;
      } catch (err) {
        if (err instanceof UnrunnableJobError) throw new UnrecoverableError(err.message);
        throw err;
      }
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: stalledMs,
      stalledInterval: Math.max(500, Math.round(stalledMs / 2)),
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on('failed', (job, err) => {
    const id = job?.id ?? '?';
    emit({ kind: 'failed', jobName: job?.name ?? '?', label: labels.get(id) ?? `job ${id}`, error: err.message });
    labels.delete(id);
  });
  worker.on('completed', (job) => labels.delete(job.id ?? '?'));
  worker.on('error', () => undefined); // connection errors are reported once each by the connection above
  return {
    where: `${shownQueueUrl(options.url)}, queue ${options.name}`,
    async close() {
      await worker.close();
      for (const handler of Object.values(options.handlers)) await handler.close?.();
      connection.disconnect();
    },
  };
}
