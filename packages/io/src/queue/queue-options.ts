/**
 * The options of the job queue, declared once: the rows `parl worker`, `parl sweep --queue` and
 * `parl swarm run --queue` build their flags from (URL, queue name, threads, stall time). Core
 * only: no BullMQ, so the command's help loads none.
 *
 * @module
 */
import { defineOptionTable, nonEmptyTextOption, positiveDecimalOption, positiveIntegerOption, type OptionRow, type OptionTable } from '@parl/core';
import { DEFAULT_QUEUE_NAME } from './queue-name.js';
import { checkQueueUrl } from './queue-url.js';

/** Seconds without a lock renewal after which another worker retries a job. */
export const DEFAULT_STALLED_AFTER_S = 30;

/** `--queue URL`: a redis:// or rediss:// URL, checked with the words the connection uses. */
export const QUEUE_URL_ROW: OptionRow<string> = {
  flag: 'queue',
  arg: 'url',
  parse: (text, field) => checkQueueUrl(text, field),
  help: 'the Redis of the queue: redis://HOST[:PORT][/DB]',
};

/** `--queue-name NAME`: the queue's name in Redis. */
export const QUEUE_NAME_ROW: OptionRow<string> = {
  flag: 'queue-name',
  arg: 'name',
  parse: nonEmptyTextOption,
  defaultText: DEFAULT_QUEUE_NAME,
  help: "the queue's name in Redis",
};

/** The settings of `parl worker`. */
export interface WorkerSettings {
  /** The Redis of the queue (required). */
  readonly queue?: string;
  /** The queue's name. */
  readonly queueName?: string;
  /** Jobs at a time. */
  readonly threads?: number;
  /** Seconds without a lock renewal before another worker retries a job. */
  readonly stalledAfter?: number;
  /** The worker's own tools module for swarm rollouts (a job never names one). */
  readonly tools?: string;
  /** The worker's own MCP servers for swarm rollouts (a job never names one). */
  readonly mcp?: string[];
}

/**
 * `parl worker`'s options.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(WORKER_OPTIONS, { queue: 'redis://127.0.0.1:6379' }, 'flag').stalledAfter; // 30
 * ```
 */
export const WORKER_OPTIONS: OptionTable<WorkerSettings> = defineOptionTable<WorkerSettings>({
  queue: QUEUE_URL_ROW,
  queueName: QUEUE_NAME_ROW,
  threads: { flag: 'threads', arg: 'n', parse: positiveIntegerOption, defaultText: 'one per core', help: 'jobs at a time; a sweep run trains in its own thread' },
  stalledAfter: {
    flag: 'stalled-after',
    arg: 'seconds',
    parse: positiveDecimalOption,
    default: DEFAULT_STALLED_AFTER_S,
    help: 'a job whose worker has not renewed its lock for this long is retried by another worker',
  },
  tools: { flag: 'tools', arg: 'file', parse: nonEmptyTextOption, help: "this worker's tools module for swarm rollouts (AI SDK tools); a job never names code to run" },
  mcp: {
    flag: 'mcp',
    arg: 'server',
    repeatable: true,
    parse: (text, field) => text.split('\n').map((one) => nonEmptyTextOption(one, field)),
    help: "this worker's MCP server for swarm rollouts: stdio:COMMAND ARGS… or an http(s):// URL; repeatable; a job never names one",
  },
});
