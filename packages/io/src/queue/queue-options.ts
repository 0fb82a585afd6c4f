/**
 * The options of the job queue, declared once: the rows `parl worker`, `parl sweep --queue` and
 * `parl swarm run --queue` build their flags from (URL, queue name, threads, stall time). Core
 * only: no BullMQ, so the command's help loads none.
 *
 * @module
 */
import { defineOptionTable, nonEmptyTextOption, positiveDecimalOption, positiveIntegerOption, type OptionRow, type OptionsOf } from '@parl/core';
import { DEFAULT_QUEUE_NAME } from './queue-name.js';
import { resolveQueueUrl } from './queue-url.js';

/** Seconds without a lock renewal after which another worker retries a job. */
export const DEFAULT_STALLED_AFTER_S = 30;

/**
 * `--queue URL`: a redis:// or rediss:// URL, checked with the words the connection uses; or
 * `env:NAME`, the URL read from the environment variable NAME (a password stays out of `ps`).
 */
export const QUEUE_URL_ROW: OptionRow<string> = {
  flag: 'queue',
  arg: 'url',
  parse: (text, field) => resolveQueueUrl(text, field),
  help: 'the Redis of the queue: redis://[:PASSWORD@]HOST[:PORT][/DB], or env:NAME to read it from the environment variable NAME (e.g. env:PARL_QUEUE_URL) so the password is not in the process list',
};

/** `--queue-name NAME`: the queue's name in Redis; given only with `--queue` (a table using it keys that row `queue`). */
export const QUEUE_NAME_ROW: OptionRow<string> = {
  flag: 'queue-name',
  arg: 'name',
  parse: nonEmptyTextOption,
  defaultText: DEFAULT_QUEUE_NAME,
  needs: 'queue',
  help: "the queue's name in Redis",
};

/**
 * `parl worker`'s options: the queue's. A worker's own tools for swarm rollouts (`--tools`,
 * `--mcp` and its credentials) are `@parl/swarm`'s rows, which the CLI adds when swarm is
 * installed (io never loads swarm).
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(WORKER_OPTIONS, { queue: 'redis://127.0.0.1:6379' }, 'flag').stalledAfter; // 30
 * ```
 */
export const WORKER_OPTIONS = defineOptionTable({
  queue: { ...QUEUE_URL_ROW, required: true },
  queueName: QUEUE_NAME_ROW,
  threads: { flag: 'threads', arg: 'n', parse: positiveIntegerOption, defaultText: 'one per core', help: 'jobs at a time; a sweep run trains in its own thread' },
  stalledAfter: {
    flag: 'stalled-after',
    arg: 'seconds',
    parse: positiveDecimalOption,
    default: DEFAULT_STALLED_AFTER_S,
    unit: 's',
    help: 'a job whose worker has not renewed its lock for this long is retried by another worker',
  },
});

/** The settings of `parl worker` (derived from {@link WORKER_OPTIONS}: the queue's URL required). */
export type WorkerSettings = OptionsOf<typeof WORKER_OPTIONS>;
