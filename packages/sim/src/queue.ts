/**
 * `@parl/sim/queue`: the sweep's jobs on `@parl/io/queue`'s shared job queue (BullMQ in Redis),
 * kept out of the main entry so that `parl train` and `parl simulate` never load BullMQ: the
 * runner `parl sweep --queue` uses, and the handler `parl worker` runs sweep jobs with.
 *
 * @packageDocumentation
 */
export { createQueueRunner, SWEEP_JOB_NAME, type QueueRunner, type QueueRunnerEvent, type QueueRunnerOptions } from './sweeps/queue-runner.js';
export { startQueueWorker, sweepJobHandler, type QueueWorkerEvent, type QueueWorkerHandle, type QueueWorkerOptions } from './sweeps/queue-worker.js';
export { SweepError } from './sweeps/sweep-error.js';
