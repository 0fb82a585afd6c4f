/**
 * The coordinator's side of a job queue (BullMQ in Redis): each job gets an id its caller derives
 * from the work itself, so a job is on the queue at most once however often the coordinator is
 * started, and a job some worker already finished (the coordinator stopped before collecting it)
 * is collected without running again. Workers (`parl worker`) need Redis, not shared storage: the
 * coordinator is the only writer of its output, so a worker killed mid-job leaves nothing
 * half-written anywhere.
 *
 * Redis is not trusted to keep what it holds. The runner writes a sentinel key when it starts and
 * checks it, and the count of the queue's jobs, every {@link QUEUE_POLL_MS}: a Redis that
 * restarted empty (or whose queue vanished) is noticed, and then, as the caller chose, every job
 * not yet collected is put on the queue again (`onLost: 'requeue'`, told through `onEvent`) or
 * fails with a {@link QueueError} (`onLost: 'fail'`). A Redis that does not answer is reported
 * every {@link QUEUE_POLL_MS} × 10 and, after {@link QUEUE_UNREACHABLE_LIMIT_MS}, fails the jobs
 * still waiting: the coordinator never waits for ever in silence.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueError } from './queue-error.js';
import { redisConnection } from './redis-connection.js';
import { checkQueueUrl, shownQueueUrl } from './queue-url.js';

/** How long the coordinator waits for Redis to answer at the start before every job counts as failed. */
export const QUEUE_CONNECT_TIMEOUT_MS = 10_000;

/** How often the runner collects finished jobs and checks that Redis still holds the queue. */
export const QUEUE_POLL_MS = 500;

/** How long Redis may stay unreachable before the jobs still waiting count as failed. */
export const QUEUE_UNREACHABLE_LIMIT_MS = 120_000;

/** What the queue runner tells its caller while it waits. */
export type QueueRunnerEvent =
  | { readonly kind: 'redis-lost'; readonly requeued: number }
  | { readonly kind: 'redis-unreachable'; readonly seconds: number };

/** Options of {@link createQueueRunner}. */
export interface QueueRunnerOptions {
  /** The queue's name in Redis. */
  readonly name: string;
  /** The name every job of this runner gets: the worker picks its handler by it. */
  readonly jobName: string;
  /** What to do when Redis lost the jobs not yet collected: put them on the queue again, or fail them with a {@link QueueError}. */
  readonly onLost: 'requeue' | 'fail';
  /** The end of every failure message: how to resume (e.g. `run the same parl sweep again to resume once it is back`). */
  readonly resumeHint: string;
  /** Told when Redis lost the queue (jobs re-queued) or stopped answering. */
  readonly onEvent?: (event: QueueRunnerEvent) => void;
  /** True when the job's result is already kept by the caller: such a job is not queued again after a loss. */
  readonly isComplete?: (jobId: string) => Promise<boolean>;
  /** Milliseconds between checks (default {@link QUEUE_POLL_MS}). */
  readonly pollMs?: number;
  /** Milliseconds Redis may stay unreachable (default {@link QUEUE_UNREACHABLE_LIMIT_MS}). */
  readonly unreachableLimitMs?: number;
}

/** A coordinator's handle on the queue. */
export interface QueueRunner<Data, Result> {
  /** Where the jobs go, for messages: `redis://…, queue NAME`. */
  readonly where: string;
  /**
   * Put a job on the queue (once: `jobId` names it) and resolve with what its worker returned.
   *
   * @throws {@link QueueError} when Redis cannot be reached, lost the job (`onLost: 'fail'`), or the runner closed;
   *   an `Error` with the worker's reason when the job failed on the worker
   */
  run(jobId: string, data: Data): Promise<Result>;
  /** Remove the finished job from Redis (its result is kept by the caller now). */
  release(jobId: string): Promise<void>;
  /** Stop waiting (jobs still waiting fail with a {@link QueueError}) and close the connection. */
  close(): Promise<void>;
}

interface Waiting<Data, Result> {
  readonly data: Data;
  resolve(out: Result): void;
  reject(err: Error): void;
}

/** A promise that rejects with `message` after `ms`, so a command on a dead connection cannot hang a check. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * A runner over a BullMQ queue in Redis. A job already finished on the queue is collected without
 * running again; one that failed is retried.
 *
 * @throws {@link @parl/core!ParlInputError} for a `url` that is not a Redis URL
 *
 * @example
 * ```ts
 * import { startQueueWorker } from '@parl/io/queue';
 * const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
 * // some `parl worker` runs the jobs; here, one in this process:
 * const worker = startQueueWorker({ url, name: 'parl-example', concurrency: 1, handlers: { train: { label: () => 'train', run: async (data) => ({ doubled: (data as { steps: number }).steps * 2 }) } } });
 * const runner = createQueueRunner<{ steps: number }, { doubled: number }>(url, { name: 'parl-example', jobName: 'train', onLost: 'requeue', resumeHint: 'run it again' });
 * const out = await runner.run('job-1', { steps: 21 });
 * out.doubled; // 42
 * await runner.close();
 * await worker.close();
 * ```
 */
export function createQueueRunner<Data, Result>(url: string, options: QueueRunnerOptions): QueueRunner<Data, Result> {
  checkQueueUrl(url);
  const { name, jobName, resumeHint } = options;
  const pollMs = options.pollMs ?? QUEUE_POLL_MS;
  const unreachableLimitMs = options.unreachableLimitMs ?? QUEUE_UNREACHABLE_LIMIT_MS;
  const emit = options.onEvent ?? (() => undefined);
  const shown = shownQueueUrl(url);
  // BullMQ leaves a connection it was handed open: it is closed here, in close().
  const connection: Redis = redisConnection(url, undefined, QUEUE_CONNECT_TIMEOUT_MS);
  const queue = new Queue<Data, Result>(name, { connection });
  queue.on('error', () => undefined); // reported through the checks below, never as an unhandled error
  // One sentinel per runner, so coordinators sharing a queue never overwrite each other's.
  const sentinelKey = `parl:queue-sentinel:${name}:${randomUUID()}`;
  const waiting = new Map<string, Waiting<Data, Result>>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let unreachableSince: number | undefined;
  let lastReport = 0;

  const ready = within(queue.waitUntilReady(), QUEUE_CONNECT_TIMEOUT_MS, `cannot reach Redis at ${shown} within ${QUEUE_CONNECT_TIMEOUT_MS / 1000} s`)
    .then(() => connection.set(sentinelKey, '1'))
    .catch((err: unknown) => {
      throw new QueueError(err instanceof Error ? err.message : String(err), 'unreachable');
    });
  ready.catch(() => undefined); // reported by each job that awaits it

  const enqueue = async (jobId: string, data: Data): Promise<void> => {
    const job = await queue.add(jobName as never, data as never, { jobId, attempts: 1, removeOnComplete: false, removeOnFail: false });
    if ((await job.getState()) === 'failed') await job.retry('failed');
  };

  /** Collect finished and failed jobs of those waiting. */
  const collect = async (): Promise<void> => {
    for (const state of ['completed', 'failed'] as const) {
      const jobs = await queue.getJobs([state], 0, 999);
      for (const job of jobs) {
        const w = job.id === undefined ? undefined : waiting.get(job.id);
        if (w === undefined) continue;
        waiting.delete(job.id as string);
        if (state === 'completed') w.resolve(job.returnvalue);
        else w.reject(new Error(job.failedReason ?? 'the worker gave no reason'));
      }
    }
  };

  const failAll = (message: string, failure: QueueError['failure']): void => {
    for (const [id, w] of waiting) {
      waiting.delete(id);
      w.reject(new QueueError(message, failure));
    }
  };

  /** Handle a Redis that no longer holds the waiting jobs (a restart emptied it, or the queue vanished). */
  const recoverIfLost = async (): Promise<void> => {
    let lost = (await connection.exists(sentinelKey)) === 0;
    if (!lost && waiting.size > 0) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children');
      const held = Object.values(counts).reduce((a, b) => a + b, 0);
      lost = held < waiting.size;
    }
    if (!lost) return;
    await connection.set(sentinelKey, '1');
    if (options.onLost === 'fail') {
      const n = waiting.size;
      failAll(`Redis at ${shown} lost queue ${name} (restarted empty?) while ${n} job${n === 1 ? '' : 's'} waited: ${resumeHint}`, 'lost');
      return;
    }
    let requeued = 0;
    for (const [id, w] of [...waiting]) {
      if (options.isComplete !== undefined && (await options.isComplete(id))) continue;
      if ((await queue.getJob(id)) !== undefined) continue;
      await enqueue(id, w.data);
      requeued++;
    }
    emit({ kind: 'redis-lost', requeued });
  };

  const tick = async (): Promise<void> => {
    timer = undefined;
    if (closed || waiting.size === 0) return;
    try {
      await within(
        (async () => {
          await recoverIfLost();
          await collect();
        })(),
        Math.max(pollMs * 4, 2_000),
        'no answer',
      );
      unreachableSince = undefined;
    } catch {
      const now = Date.now();
      unreachableSince ??= now;
      const seconds = Math.round((now - unreachableSince) / 1000);
      if (now - unreachableSince >= unreachableLimitMs) {
        failAll(`Redis at ${shown} did not answer for ${seconds} s: ${resumeHint}`, 'unreachable');
      } else if (now - unreachableSince >= pollMs * 10 && now - lastReport >= pollMs * 10) {
        lastReport = now;
        emit({ kind: 'redis-unreachable', seconds });
      }
    }
    if (!closed && waiting.size > 0) timer = setTimeout(() => void tick(), pollMs);
  };

  return {
    where: `${shown}, queue ${name}`,
    async run(jobId, data) {
      await ready;
      if (closed) throw new QueueError(`the queue at ${shown} was closed`, 'stopped');
      const done = new Promise<Result>((resolve, reject) => waiting.set(jobId, { data, resolve, reject }));
      try {
        await enqueue(jobId, data);
      } catch (err) {
        waiting.delete(jobId);
        throw err;
      }
      timer ??= setTimeout(() => void tick(), pollMs);
      return done;
    },
    async release(jobId) {
      await queue.remove(jobId).catch(() => undefined); // gone already when Redis lost it
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      failAll(`the queue at ${shown} was closed`, 'stopped');
      await within(connection.del(sentinelKey), 1_000, 'no answer').catch(() => undefined);
      // Closing waits for a connection that never came up: give it a moment, then cut the connection.
      await Promise.race([queue.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
      connection.disconnect();
    },
  };
}
