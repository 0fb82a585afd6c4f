/**
 * The queue runner of a sweep (`parl sweep --queue redis://…`), on `@parl/io/queue`'s shared job
 * queue: each run becomes a job named {@link SWEEP_JOB_NAME} whose id is the run id, so a run is on
 * the queue at most once however often the sweep is started; `parl worker` processes take the
 * jobs and send the run folder's files back as the job's return value. The sweep process is the
 * only writer of the sweep folder.
 *
 * A Redis that restarted empty (or whose queue vanished) is told to the caller and every run not
 * yet collected is put on the queue again — except a run whose folder the caller finds complete
 * on disk, so a finished run is never lost and never trained twice for nothing. A Redis that does
 * not answer is reported and, after `QUEUE_UNREACHABLE_LIMIT_MS`, fails the runs still waiting
 * (a second `parl sweep` resumes them).
 *
 * @module
 */
import { DEFAULT_QUEUE_NAME, createQueueRunner as createJobQueueRunner, type QueueRunnerEvent as JobQueueEvent } from '@parl/io/queue';
import type { SweepRunOutput, SweepTask } from '../internal/sweeps/sweep-job.js';
import type { SweepRunner } from '../internal/sweeps/local-pool.js';

/** The name of every sweep job (`parl worker` runs it with the simulator). */
export const SWEEP_JOB_NAME = 'train';

/** What the queue runner tells its caller while it waits. */
export type QueueRunnerEvent = JobQueueEvent;

/** Options of {@link createQueueRunner}. */
export interface QueueRunnerOptions {
  /** The queue's name (default `parl-sweep`). */
  readonly name?: string;
  /** Told when Redis lost the sweep (runs re-queued) or stopped answering. */
  readonly onEvent?: (event: QueueRunnerEvent) => void;
  /** True when the run's folder is complete on disk: such a run is not queued again after a loss. */
  readonly isComplete?: (runId: string) => Promise<boolean>;
  /** Milliseconds between checks (default 500). */
  readonly pollMs?: number;
  /** Milliseconds Redis may stay unreachable (default 120 000). */
  readonly unreachableLimitMs?: number;
}

/** A runner that can also forget a run once its folder is written. */
export interface QueueRunner extends SweepRunner {
  /** Remove the finished job of `runId` from Redis (its result is in the sweep folder now). */
  release(runId: string): Promise<void>;
}

/**
 * A sweep runner over the job queue in Redis. A run already finished on the queue (the sweep
 * stopped before writing it) is collected without running again; one that failed is retried.
 *
 * @example
 * ```ts
 * import { getPreset, resolveTrainingConfig } from '@parl/sim';
 * import { startQueueWorker } from '@parl/sim/queue';
 * import { runIdOf } from '../internal/runs/run-id.js';
 * const url = redisUrl; // a Redis server, such as 'redis://127.0.0.1:6379'
 * const worker = startQueueWorker({ url, threads: 1 }); // as `parl worker` does, on any machine
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const runner = createQueueRunner(url);
 * const out = await runner.run({ runId: runIdOf(config), config }); // the worker trained it
 * out.runId === runIdOf(config); // true
 * await runner.release(out.runId);
 * await runner.close();
 * await worker.close();
 * ```
 */
export function createQueueRunner(url: string, options: QueueRunnerOptions = {}): QueueRunner {
  const queue = createJobQueueRunner<SweepTask, SweepRunOutput>(url, {
    name: options.name ?? DEFAULT_QUEUE_NAME,
    jobName: SWEEP_JOB_NAME,
    onLost: 'requeue',
    resumeHint: 'run the same parl sweep again to resume once it is back',
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.isComplete === undefined ? {} : { isComplete: options.isComplete }),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.unreachableLimitMs === undefined ? {} : { unreachableLimitMs: options.unreachableLimitMs }),
  });
  return {
    where: queue.where,
    run: (task) => queue.run(task.runId, task),
    release: (runId) => queue.release(runId),
    close: () => queue.close(),
  };
}
