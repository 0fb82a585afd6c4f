/**
 * The queue runner of a sweep (`parl sweep --queue redis://…`): each run becomes a BullMQ job
 * whose id is the run id, so a run is on the queue at most once however often the sweep is
 * started; `parl worker` processes take the jobs and send the run folder's files back as the
 * job's return value. The sweep process is the only writer of the sweep folder: workers need
 * Redis, not shared storage, and a worker killed mid-run leaves nothing half-written anywhere.
 *
 * @module
 */
import { Queue, QueueEvents } from 'bullmq';
import type { SweepRunOutput, SweepTask } from '@parl/sim';
import { CliError } from '../errors.js';
import type { SweepRunner } from './local-pool.js';
import { DEFAULT_QUEUE_NAME, redisConnection, shownQueueUrl } from './queue-connection.js';

/** The name of every sweep job (the queue holds nothing else). */
export const SWEEP_JOB_NAME = 'train';

/** How long the sweep waits for Redis to answer before every run counts as failed. */
export const QUEUE_CONNECT_TIMEOUT_MS = 10_000;

/** A runner that can also forget a run once its folder is written. */
export interface QueueRunner extends SweepRunner {
  /** Remove the finished job of `runId` from Redis (its result is in the sweep folder now). */
  release(runId: string): Promise<void>;
}

/**
 * A runner over a BullMQ queue in Redis. A run already finished on the queue (the sweep stopped
 * before writing it) is collected without running again; one that failed is retried. When Redis
 * does not answer within {@link QUEUE_CONNECT_TIMEOUT_MS}, every run fails with that reason.
 *
 * @example
 * ```ts
 * const runner = createQueueRunner('redis://127.0.0.1:6379');
 * const out = await runner.run({ runId, config }); // some `parl worker` trained it
 * ```
 */
export function createQueueRunner(url: string, name: string = DEFAULT_QUEUE_NAME): QueueRunner {
  // BullMQ leaves connections it was handed open: they are closed here, in close().
  const connections = [redisConnection(url, undefined, QUEUE_CONNECT_TIMEOUT_MS), redisConnection(url, undefined, QUEUE_CONNECT_TIMEOUT_MS)] as const;
  const queue = new Queue<SweepTask, SweepRunOutput>(name, { connection: connections[0] });
  const events = new QueueEvents(name, { connection: connections[1] });
  events.setMaxListeners(0);
  queue.setMaxListeners(0); // waitUntilFinished adds a 'closing' listener per run
  let timer: NodeJS.Timeout | undefined;
  const ready = Promise.race([
    Promise.all([queue.waitUntilReady(), events.waitUntilReady()]),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CliError(`cannot reach Redis at ${shownQueueUrl(url)} within ${QUEUE_CONNECT_TIMEOUT_MS / 1000} s`, 1)), QUEUE_CONNECT_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  ready.catch(() => undefined); // reported by each run that awaits it
  // A connection error is reported by the command that waits; don't let it crash the process too.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  return {
    where: `${shownQueueUrl(url)}, queue ${name}`,
    async run(task) {
      await ready;
      const job = await queue.add(SWEEP_JOB_NAME, task, { jobId: task.runId, attempts: 1, removeOnComplete: false, removeOnFail: false });
      if ((await job.getState()) === 'failed') await job.retry('failed');
      return (await job.waitUntilFinished(events)) as SweepRunOutput;
    },
    async release(runId) {
      await queue.remove(runId);
    },
    async close() {
      // Closing waits for a connection that never came up: give it a moment, then cut the connections.
      await Promise.race([Promise.allSettled([events.close(), queue.close()]), new Promise((r) => setTimeout(r, 2_000).unref())]);
      for (const c of connections) c.disconnect();
    },
  };
}
