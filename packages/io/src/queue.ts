/**
 * `@parl/io/queue`: the job queue both `parl sweep --queue` and `parl swarm run --queue` use, on
 * BullMQ in Redis — the coordinator's runner (jobs named by what they compute, results collected
 * through Redis, a Redis that restarts empty or stops answering noticed and named) and the worker
 * loop `parl worker` runs (handlers by job name, stalled jobs retried elsewhere). A subpath of its
 * own, so that `@parl/io`'s main entry (and `parl reward`) never loads BullMQ. What a job is — a
 * training run, a rollout — stays with the package that runs it.
 *
 * @packageDocumentation
 */
export {
  createQueueRunner,
  QUEUE_CONNECT_TIMEOUT_MS,
  QUEUE_POLL_MS,
  QUEUE_UNREACHABLE_LIMIT_MS,
  type QueueRunner,
  type QueueRunnerEvent,
  type QueueRunnerOptions,
} from './queue/queue-runner.js';
export {
  DEFAULT_STALLED_AFTER_S,
  MAX_STALLS,
  startQueueWorker,
  type QueueJobHandler,
  type QueueWorkerEvent,
  type QueueWorkerHandle,
  type QueueWorkerOptions,
} from './queue/queue-worker.js';
export { QueueError, UnrunnableJobError, type QueueFailure } from './queue/queue-error.js';
export { checkQueueUrl, QUEUE_URL_VARIABLE, resolveQueueUrl, shownQueueUrl } from './queue/queue-url.js';
export { redisConnection } from './queue/redis-connection.js';
export { DEFAULT_QUEUE_NAME } from './queue/queue-name.js';
