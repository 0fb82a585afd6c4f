/**
 * `parl swarm run --queue redis://…`: the rollouts spread over machines through the shared job
 * queue (`@parl/io/queue`, loaded only here). This process is the coordinator and the only writer
 * of the rollout file: every missing task × sample becomes a job, `parl worker` processes run the
 * episodes, and each line that comes back is appended to `<out>.partial` as the local path does;
 * each group, once it and those before it are in, gets its GRPO advantages and goes to the final
 * file (renamed into place at the end) in task, then sample order — the same file a local run writes. A Redis that restarts empty mid-run
 * fails the run with a named error (what finished stays in the partial file); one that stops
 * answering is reported, then fails the run: never a hang.
 *
 * @module
 */
import type { SwarmRunOptions } from '../options.js';
import type { SpansFile } from './spans-file.js';
import type { SwarmTask } from '../tasks/task.js';
import type { RolloutFile } from '../rollouts/rollout-file.js';
import type { RolloutSummary } from '../rollouts/rollout-summary.js';
import { collectRollouts, type RolloutOptions } from '../rollouts/run-rollouts.js';
import { ROLLOUT_JOB_NAME, rolloutJob, rolloutJobId, taskRowOf, type RolloutJob, type RolloutJobResult } from './rollout-job.js';

/** What the coordinator tells its caller while it waits on the queue. */
export type RolloutQueueEvent = { readonly kind: 'redis-unreachable'; readonly seconds: number };

/** A rollout job that failed on a worker (its provider failed, or the worker cannot run rollouts). */
export class RolloutJobError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_ROLLOUT_JOB'] as const;
  /** The stable code: `PARL_ERR_ROLLOUT_JOB` (match on this, never on the message). */
  readonly code = 'PARL_ERR_ROLLOUT_JOB';
  /** @param message - one line: the worker's reason (the episode's failure names the rollout) */
  constructor(message: string) {
    super(message);
    this.name = 'RolloutJobError';
  }
}

/** How to run rollouts through the queue. */
export interface QueuedRolloutOptions extends RolloutOptions {
  /** The Redis URL. */
  readonly url: string;
  /** The queue's name (default `parl-sweep`, the one `parl worker` takes from by default). */
  readonly queueName?: string;
  /** The spans file, when the run writes one: each job's spans are appended as they come. */
  readonly spans?: SpansFile;
  /** Told when Redis stops answering. */
  readonly onQueueEvent?: (event: RolloutQueueEvent) => void;
  /** Milliseconds between checks of the queue (default: the queue's). */
  readonly pollMs?: number;
}

/**
 * Run `tasks` × `groupSize` episodes on `parl worker` processes.
 *
 * @returns the summary of the lines (which go to `queued.out` and `queued.onLine` in task, then sample order)
 * @throws {@link @parl/io/queue!QueueError} when Redis cannot be reached, stays away or lost the
 *   queue; `SwarmEpisodesFailedError` (each failure a {@link RolloutJobError}'s line) when jobs
 *   failed on workers — in both cases after every other job came back, and what finished stays in
 *   `<out>.partial` for the next run
 */
export async function runQueuedRollouts(tasks: readonly SwarmTask[], options: SwarmRunOptions, queued: QueuedRolloutOptions, opened?: RolloutFile): Promise<RolloutSummary> {
  const { createQueueRunner, DEFAULT_QUEUE_NAME } = await import('@parl/io/queue');
  const resumeHint =
    queued.out === undefined ? 'nothing was written: run the same parl swarm run again once it is back' : `the finished rollouts are in ${queued.out}.partial: run the same parl swarm run again to resume`;
  const runner = createQueueRunner<RolloutJob, RolloutJobResult>(queued.url, {
    name: queued.queueName ?? DEFAULT_QUEUE_NAME,
    jobName: ROLLOUT_JOB_NAME,
    onLost: 'fail',
    resumeHint,
    ...(queued.pollMs === undefined ? {} : { pollMs: queued.pollMs }),
    onEvent: (e) => {
      if (e.kind === 'redis-unreachable') queued.onQueueEvent?.(e);
    },
  });
  try {
    return await collectRollouts(tasks, queued, async (missing, keep, fail) => {
      const errors: Error[] = [];
      await Promise.all(
        missing.map(async ({ task, taskIndex, sample }) => {
          if (queued.signal?.aborted === true) return;
          const job = rolloutJob(options, taskIndex, sample, queued.spans !== undefined, taskRowOf(task));
          const id = rolloutJobId(job);
          let result: RolloutJobResult;
          try {
            result = await runner.run(id, job);
          } catch (err) {
            const error = err instanceof Error ? err : new Error(String(err));
            // A job a worker failed is an error of that episode (no line, no reward); a lost queue fails the run.
            if (error.name === 'QueueError') errors.push(error);
            // The failure's line names the task and the rollout; the error says what the worker said.
            else fail({ task, taskIndex, sample }, new RolloutJobError(`the worker says: ${error.message}`));
            return;
          }
          await keep(result.line);
          if (result.spans !== undefined) await queued.spans?.append(result.spans);
          await runner.release(id);
        }),
      );
      const first = errors[0];
      if (first !== undefined) throw first;
    }, opened);
  } finally {
    await runner.close();
  }
}
