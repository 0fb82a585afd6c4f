/**
 * `@parl/sim/queue`: the Redis side of sweeps (BullMQ), kept out of the main entry so that
 * `parl train` and `parl simulate` never load BullMQ: the runner `parl sweep --queue` uses and the
 * worker `parl worker` runs.
 *
 * @packageDocumentation
 */
export {
  createQueueRunner,
  QUEUE_CONNECT_TIMEOUT_MS,
  QUEUE_POLL_MS,
  QUEUE_UNREACHABLE_LIMIT_MS,
  SWEEP_JOB_NAME,
  type QueueRunner,
  type QueueRunnerEvent,
  type QueueRunnerOptions,
} from './sweeps/queue-runner.js';
export {
  DEFAULT_STALLED_AFTER_S,
  MAX_STALLS,
  startQueueWorker,
  type QueueWorkerEvent,
  type QueueWorkerHandle,
  type QueueWorkerOptions,
} from './sweeps/queue-worker.js';
export { checkQueueUrl, DEFAULT_QUEUE_NAME, redisConnection, shownQueueUrl } from './sweeps/queue-connection.js';
export { SweepError } from './sweeps/sweep-error.js';
