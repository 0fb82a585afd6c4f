/**
 * The entry of a sweep's worker threads (`@parl/sim/sweep-worker`): its default export trains one
 * {@link SweepTask}. A thread pool such as piscina loads this file in each thread, so TensorFlow.js
 * is loaded once per thread and reused for every run it takes.
 *
 * @module
 */
import { trainSweepRun, type SweepRunOutput, type SweepTask } from './internal/sweeps/sweep-job.js';

/**
 * Train one sweep run (see {@link trainSweepRun}).
 *
 * @example
 * ```ts
 * const pool = new Piscina({ filename: import.meta.resolve('@parl/sim/sweep-worker') });
 * const out = await pool.run({ runId, config });
 * ```
 */
export default function runSweepTask(task: SweepTask): Promise<SweepRunOutput> {
  return trainSweepRun(task);
}
