/**
 * The local runner of a sweep: a piscina pool of worker threads, one per core by default. Each
 * thread loads `@parl/sim/sweep-worker` (and TensorFlow.js) once and trains one run at a time.
 *
 * Threads rather than child processes: a thread starts in a fraction of the time, runs from the
 * same installed files as the caller (no bin or PATH to find), and returns the run's files as a
 * structured clone; a thread's crash (an exception, an out-of-memory stop) fails only its run.
 * Piscina rather than a hand-written pool: it is maintained by Node.js contributors, queues the
 * tasks, replaces a thread that died and tears the pool down cleanly.
 *
 * @module
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { SweepRunOutput, SweepTask } from './sweep-job.js';

/** Something that trains sweep runs: the local pool or a queue. */
export interface SweepRunner {
  /** Train one run (locally or elsewhere) and return its files. */
  run(task: SweepTask): Promise<SweepRunOutput>;
  /** Release threads and connections. */
  close(): Promise<void>;
  /** Where the runs go, for messages: `2 threads` or `redis://…, queue parl-sweep`. */
  readonly where: string;
}

/** The default pool size: the cores Node may use (`os.availableParallelism()`). */
export function defaultThreads(): number {
  return availableParallelism();
}

/**
 * The file the pool's threads load: this package's built `dist/sweep-worker.js`
 * (`@parl/sim/sweep-worker`), found through the package's own name so that it is the same file
 * whether the caller runs the built package or its sources (tests).
 */
export function sweepWorkerFile(): string {
  const simPackage = createRequire(import.meta.url).resolve('@parl/sim/package.json');
  return pathToFileURL(join(dirname(simPackage), 'dist', 'sweep-worker.js')).href;
}

/**
 * A pool of `threads` worker threads training sweep runs; tasks beyond `threads` wait in the
 * pool's queue.
 *
 * @example
 * ```ts
 * import { getPreset, resolveTrainingConfig } from '@parl/sim';
 * import { runIdOf } from '../runs/run-id.js';
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const runId = runIdOf(config);
 * const pool = createLocalPool(2);
 * const out = await pool.run({ runId, config });
 * await pool.close();
 * out.runId === runId; // true
 * ```
 */
export function createLocalPool(threads: number = defaultThreads()): SweepRunner {
  const pool = new Piscina<SweepTask, SweepRunOutput>({
    filename: sweepWorkerFile(),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 5_000,
    concurrentTasksPerWorker: 1,
  });
  return {
    where: `${threads} thread${threads === 1 ? '' : 's'}`,
    run: (task) => pool.run(task),
    close: () => pool.destroy(),
  };
}
