/**
 * The queue runner of a sweep (`parl sweep --queue redis://…`): each run becomes a BullMQ job
 * whose id is the run id, so a run is on the queue at most once however often the sweep is
 * started; `parl worker` processes take the jobs and send the run folder's files back as the
 * job's return value. The sweep process is the only writer of the sweep folder: workers need
 * Redis, not shared storage, and a worker killed mid-run leaves nothing half-written anywhere.
 *
 * Redis is not trusted to keep what it holds. The runner writes a sentinel key when it starts and
 * checks it, and the count of the queue's jobs, every {@link QUEUE_POLL_MS}: a Redis that
 * restarted empty (or whose queue vanished) is told to the caller and every run not yet collected
 * is put on the queue again — except a run whose folder the caller finds complete on disk, so a
 * finished run is never lost and never trained twice for nothing. A Redis that does not answer
 * is reported every {@link QUEUE_POLL_MS} × 10 and, after {@link QUEUE_UNREACHABLE_LIMIT_MS},
 * fails the runs still waiting (a second `parl sweep` resumes them): the sweep never waits for
 * ever in silence.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { SweepError } from './sweep-error.js';
import type { SweepRunOutput, SweepTask } from './sweep-job.js';
import type { SweepRunner } from './local-pool.js';
import { DEFAULT_QUEUE_NAME, redisConnection, shownQueueUrl } from './queue-connection.js';

/** The name of every sweep job (the queue holds nothing else). */
export const SWEEP_JOB_NAME = 'train';

/** How long the sweep waits for Redis to answer at the start before every run counts as failed. */
export const QUEUE_CONNECT_TIMEOUT_MS = 10_000;

/** How often the runner collects finished runs and checks that Redis still holds the sweep. */
export const QUEUE_POLL_MS = 500;

/** How long Redis may stay unreachable mid-sweep before the runs still waiting count as failed. */
export const QUEUE_UNREACHABLE_LIMIT_MS = 120_000;

/** What the queue runner tells its caller while it waits. */
export type QueueRunnerEvent =
  | { readonly kind: 'redis-lost'; readonly requeued: number }
  | { readonly kind: 'redis-unreachable'; readonly seconds: number };

/** Options of {@link createQueueRunner}. */
export interface QueueRunnerOptions {
  /** The queue's name (default {@link DEFAULT_QUEUE_NAME}). */
  readonly name?: string;
  /** Told when Redis lost the sweep (runs re-queued) or stopped answering. */
  readonly onEvent?: (event: QueueRunnerEvent) => void;
  /** True when the run's folder is complete on disk: such a run is not queued again after a loss. */
  readonly isComplete?: (runId: string) => Promise<boolean>;
  /** Milliseconds between checks (default {@link QUEUE_POLL_MS}). */
  readonly pollMs?: number;
  /** Milliseconds Redis may stay unreachable (default {@link QUEUE_UNREACHABLE_LIMIT_MS}). */
  readonly unreachableLimitMs?: number;
}

/** A runner that can also forget a run once its folder is written. */
export interface QueueRunner extends SweepRunner {
  /** Remove the finished job of `runId` from Redis (its result is in the sweep folder now). */
  release(runId: string): Promise<void>;
}

interface Waiting {
  readonly task: SweepTask;
  resolve(out: SweepRunOutput): void;
  reject(err: Error): void;
}

/** A promise that rejects with `message` after `ms`, so a command on a dead connection cannot hang a check. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * A runner over a BullMQ queue in Redis. A run already finished on the queue (the sweep stopped
 * before writing it) is collected without running again; one that failed is retried.
 *
 * @example
 * ```ts
 * const runner = createQueueRunner('redis://127.0.0.1:6379');
 * const out = await runner.run({ runId, config }); // some `parl worker` trained it
 * ```
 */
export function createQueueRunner(url: string, options: QueueRunnerOptions = {}): QueueRunner {
  const name = options.name ?? DEFAULT_QUEUE_NAME;
  const pollMs = options.pollMs ?? QUEUE_POLL_MS;
  const unreachableLimitMs = options.unreachableLimitMs ?? QUEUE_UNREACHABLE_LIMIT_MS;
  const emit = options.onEvent ?? (() => undefined);
  const shown = shownQueueUrl(url);
  // BullMQ leaves a connection it was handed open: it is closed here, in close().
  const connection: Redis = redisConnection(url, undefined, QUEUE_CONNECT_TIMEOUT_MS);
  const queue = new Queue<SweepTask, SweepRunOutput>(name, { connection });
  queue.on('error', () => undefined); // reported through the checks below, never as an unhandled error
  const sentinelKey = `parl:sweep-sentinel:${name}`;
  const token = randomUUID();
  const waiting = new Map<string, Waiting>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let unreachableSince: number | undefined;
  let lastReport = 0;

  const ready = within(queue.waitUntilReady(), QUEUE_CONNECT_TIMEOUT_MS, `cannot reach Redis at ${shown} within ${QUEUE_CONNECT_TIMEOUT_MS / 1000} s`)
    .then(() => connection.set(sentinelKey, token))
    .catch((err: unknown) => {
      throw new SweepError(err instanceof Error ? err.message : String(err), false);
    });
  ready.catch(() => undefined); // reported by each run that awaits it

  const enqueue = async (task: SweepTask): Promise<void> => {
    const job = await queue.add(SWEEP_JOB_NAME, task, { jobId: task.runId, attempts: 1, removeOnComplete: false, removeOnFail: false });
    if ((await job.getState()) === 'failed') await job.retry('failed');
  };

  /** Collect finished and failed jobs of the runs waiting. */
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

  /** Re-queue every waiting run Redis no longer holds (a restart emptied it, or the queue vanished). */
  const recoverIfLost = async (): Promise<void> => {
    const sentinel = await connection.get(sentinelKey);
    let lost = sentinel !== token;
    if (!lost && waiting.size > 0) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children');
      const held = Object.values(counts).reduce((a, b) => a + b, 0);
      lost = held < waiting.size;
    }
    if (!lost) return;
    await connection.set(sentinelKey, token);
    let requeued = 0;
    for (const w of [...waiting.values()]) {
      if (options.isComplete !== undefined && (await options.isComplete(w.task.runId))) continue;
      if ((await queue.getJob(w.task.runId)) !== undefined) continue;
      await enqueue(w.task);
      requeued++;
    }
    emit({ kind: 'redis-lost', requeued });
  };

  const failAll = (message: string): void => {
    for (const [id, w] of waiting) {
      waiting.delete(id);
      w.reject(new SweepError(message, false));
    }
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
        failAll(`Redis at ${shown} did not answer for ${seconds} s: run the same parl sweep again to resume once it is back`);
      } else if (now - unreachableSince >= pollMs * 10 && now - lastReport >= pollMs * 10) {
        lastReport = now;
        emit({ kind: 'redis-unreachable', seconds });
      }
    }
    if (!closed && waiting.size > 0) timer = setTimeout(() => void tick(), pollMs);
  };

  return {
    where: `${shown}, queue ${name}`,
    async run(task) {
      await ready;
      const done = new Promise<SweepRunOutput>((resolve, reject) => waiting.set(task.runId, { task, resolve, reject }));
      try {
        await enqueue(task);
      } catch (err) {
        waiting.delete(task.runId);
        throw err;
      }
      timer ??= setTimeout(() => void tick(), pollMs);
      return done;
    },
    async release(runId) {
      await queue.remove(runId).catch(() => undefined); // gone already when Redis lost it
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      failAll('the sweep stopped');
      // Closing waits for a connection that never came up: give it a moment, then cut the connection.
      await Promise.race([queue.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
      connection.disconnect();
    },
  };
}
