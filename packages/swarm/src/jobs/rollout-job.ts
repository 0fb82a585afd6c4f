/**
 * One rollout as a job of the shared job queue (`@parl/io/queue`): the coordinator
 * (`parl swarm run --queue`) puts a job per task × sample, and a `parl worker` runs the episode
 * and sends the line back. A job carries the run's settings as the flag texts of
 * `SWARM_RUN_OPTIONS` (the endpoint, model names, suite, seed, limits, budget…), read back on the
 * worker through the same table, so both ends check them alike — and never an API key: the
 * worker's own environment gives it (`PARL_API_KEY`, else `OPENAI_API_KEY`).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { ParlInputError, resolveOptions } from '@parl/core';
import type { LanguageModel } from 'ai';
import { openSpanCapture } from './spans-file.js';
import { endpointSettings } from './episode-settings.js';
import { SWARM_RUN_OPTIONS, type SwarmRunOptions } from '../options.js';
import { generateSuite } from '../tasks/suites.js';
import type { SampleLine } from '../rollouts/rollout-file.js';
import { runSample } from '../rollouts/run-rollouts.js';

/** The name of every rollout job on the queue (`parl worker` runs it with `@parl/swarm`). */
export const ROLLOUT_JOB_NAME = 'swarm-rollout';

/** The options of `parl swarm run` that shape an episode: what a job carries. */
const EPISODE_OPTION_KEYS = ['baseUrl', 'model', 'subagentModel', 'subagents', 'suite', 'seed', 'concurrency', 'limits', 'budget', 'onBudget', 'trainingStep', 'logprobs'] as const;

/** One rollout to run: the settings (as flag texts), the task's place in the suite and the sample. */
export interface RolloutJob {
  /** `parl swarm run` flag → text, for the options that shape an episode (no key: keys never travel). */
  readonly options: Readonly<Record<string, string>>;
  /** The task's place in the suite the options generate (0-based). */
  readonly task: number;
  /** The sample number (0-based). */
  readonly sample: number;
  /** Send the episode's spans back (OTLP JSON). */
  readonly spans: boolean;
}

/** What a worker sends back for a rollout job. */
export interface RolloutJobResult {
  /** The line, without its advantage (the coordinator computes it when the group is complete). */
  readonly line: SampleLine;
  /** The episode's spans as one OTLP JSON export request, when the job asked for them. */
  readonly spans?: string;
}

/** The job of task `task`, sample `sample`, under `options`. */
export function rolloutJob(options: SwarmRunOptions, task: number, sample: number, spans: boolean): RolloutJob {
  const texts: Record<string, string> = {};
  for (const key of EPISODE_OPTION_KEYS) {
    const value = options[key];
    // A switch is given as 'true' or not at all, as on the command line.
    if (value !== undefined && value !== false) texts[SWARM_RUN_OPTIONS[key].flag] = String(value);
  }
  return { options: texts, task, sample, spans };
}

/**
 * The job's id on the queue: a digest of the job itself, so the same rollout is queued once
 * however often the coordinator starts, and two runs with different settings never share a job.
 */
export function rolloutJobId(job: RolloutJob): string {
  return `rollout-${createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 32)}`;
}

function checkIndex(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ParlInputError(field, value, 'an integer ≥ 0');
  return value;
}

/**
 * The largest result a worker sends back for one rollout job (its line, with `--logprobs` the
 * orchestrator's token ids and log-probabilities, and its spans), as JSON: 64 MiB. BullMQ keeps a
 * job's result in Redis until the coordinator collects it; a larger one fails the job, named.
 */
export const MAX_ROLLOUT_RESULT_BYTES = 64 * 1024 * 1024;

/** What a worker needs besides the job. */
export interface RolloutJobHooks {
  /** The bound on a job's result (default {@link MAX_ROLLOUT_RESULT_BYTES}). */
  readonly maxResultBytes?: number;
  /** Models by name instead of the endpoint (tests, and a caller with its own provider). */
  readonly models?: (name: string) => LanguageModel;
  /** The environment the API key is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Run one rollout job: the episode of the job's task and sample, exactly as the local path runs it.
 *
 * @throws {@link @parl/core!ParlInputError} for a job that is not a rollout job of this version (a field named)
 * @throws {@link SwarmProviderError} when the orchestrator's model failed
 */
export async function runRolloutJob(data: unknown, hooks: RolloutJobHooks = {}): Promise<RolloutJobResult> {
  const job = (typeof data === 'object' && data !== null ? data : {}) as Partial<RolloutJob>;
  if (typeof job.options !== 'object' || job.options === null) throw new ParlInputError('job.options', job.options, 'the flag texts of parl swarm run');
  const options = resolveOptions(SWARM_RUN_OPTIONS, job.options, 'flag');
  const taskIndex = checkIndex(job.task, 'job.task');
  const sample = checkIndex(job.sample, 'job.sample');
  // Task i of a suite is the same whatever the count: generate up to it.
  const task = generateSuite(options.suite, { tasks: taskIndex + 1, seed: options.seed })[taskIndex];
  if (task === undefined) throw new ParlInputError('job.task', job.task, 'a task of the suite');
  const capture = job.spans === true ? await openSpanCapture() : undefined;
  const settings = endpointSettings({ ...options, tracer: capture?.tracer, models: hooks.models, env: hooks.env });
  const line = await runSample(task, { ...settings, trainingStep: settings.trainingStep ?? 0 }, sample);
  const spans = capture?.take();
  const result: RolloutJobResult = spans === undefined ? { line } : { line, spans };
  const limit = hooks.maxResultBytes ?? MAX_ROLLOUT_RESULT_BYTES;
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes > limit) {
    throw new ParlInputError(
      'rollout result',
      `${bytes} bytes (task ${taskIndex}, sample ${sample})`,
      `at most ${limit} bytes, the bound on what one job sends back through Redis (drop --spans or --logprobs, or lower the limits of the episode)`,
      undefined,
      'PARL_ERR_LIMIT',
    );
  }
  return result;
}

/** A short label of a rollout job for a worker's log lines: `rollout wide-s1-3/0`. */
export function rolloutJobLabel(data: unknown): string {
  const job = (typeof data === 'object' && data !== null ? data : {}) as Partial<RolloutJob>;
  const o = job.options ?? {};
  return `rollout ${o['suite'] ?? '?'}-s${o['seed'] ?? '?'}-${String(job.task)}/${String(job.sample)}`;
}

/** A handler of rollout jobs, in the shape `@parl/io/queue`'s worker loop takes (its `QueueJobHandler`). */
export interface RolloutJobHandler {
  /** A short label of one job for log lines: `rollout wide-s1-3/0`. */
  label(data: unknown): string;
  /** Run one job and return what goes back to the coordinator. */
  run(data: unknown): Promise<RolloutJobResult>;
}

/**
 * The handler `parl worker` runs rollout jobs with (`@parl/io/queue`'s worker loop): one
 * episode per job, on the event loop (model calls are network I/O), so a worker takes as many at
 * once as its concurrency allows.
 *
 * @example
 * ```ts
 * startQueueWorker({ url, name: 'parl-sweep', concurrency: 8, handlers: { [ROLLOUT_JOB_NAME]: rolloutJobHandler() } });
 * ```
 */
export function rolloutJobHandler(hooks: RolloutJobHooks = {}): RolloutJobHandler {
  return { label: (data) => rolloutJobLabel(data), run: (data) => runRolloutJob(data, hooks) };
}
