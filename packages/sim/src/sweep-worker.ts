/**
 * The entry of a sweep's worker threads (`@parl/sim/sweep-worker`): its default export trains one
 * {@link SweepTask}. A thread pool such as piscina loads this file in each thread, so TensorFlow.js
 * is loaded once per thread and reused for every run it takes.
 *
 * @module
 */
import { trainSweepRun, type SweepRunOutput, type SweepTask } from './internal/sweeps/sweep-job.js';

/**
 * Train one sweep run (see {@link trainSweepRun}). A thread pool loads this file by its name,
 * `new Piscina({ filename: import.meta.resolve('@parl/sim/sweep-worker') })`, and calls it with each
 * task; called directly it trains in the calling thread.
 *
 * @example
 * ```ts
 * import runSweepTask from '@parl/sim/sweep-worker';
 * import { getPreset, resolveTrainingConfig } from '@parl/sim';
 * import { runIdOf } from './internal/runs/run-id.js';
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const out = await runSweepTask({ runId: runIdOf(config), config });
 * Object.keys(out.files).includes('summary.json'); // true
 * ```
 */
export default function runSweepTask(task: SweepTask): Promise<SweepRunOutput> {
  return trainSweepRun(task);
}
