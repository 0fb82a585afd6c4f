/**
 * One rollout as a job of the shared job queue (`@parl/io/queue`): the coordinator
 * (`parl swarm run --queue`) puts a job per task × sample, and a `parl worker` runs the episode
 * and sends the line back. A job carries the run's settings as the flag texts of
 * `SWARM_RUN_OPTIONS` (the endpoint, model names, suite, seed, limits, budget…), read back on the
 * worker through the same table, so both ends check them alike — and never an API key: the
 * worker's own environment gives it (`PARL_API_KEY`, else `OPENAI_API_KEY`; the judge's,
 * `PARL_JUDGE_API_KEY`). A task from a task file travels as its row (spec §10.1), never as a path
 * on the coordinator's disk, and is checked on the worker as the coordinator checked it. A job
 * never names code: a `module:` scorer, the run's or a row's, is refused on both ends (a worker's
 * scorer modules are its own), so whoever can write to Redis cannot make a worker run anything.
 * With `--token-in` a job carries the model folder's and the chat template's paths (made absolute
 * on the coordinator), never their contents: the worker reads the folder at that path, once per
 * process, and only under the folders it was given (`parl worker --model-folder`), so a job cannot
 * make it read any other file (`worker-token-in.ts`, `model-folder-trust.ts`).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { ParlInputError, resolveOptions } from '@parl/core';
import type { LanguageModel } from 'ai';
import { openSpanCapture } from './spans-file.js';
import { checkEndpointTrust } from './endpoint-trust.js';
import { endpointSettings } from './episode-settings.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import { SWARM_RUN_OPTIONS, type SwarmRunOptions } from '../options.js';
import { GENERATED_SUITE_DEFAULTS } from '../tasks/suites/suite-settings.js';
import { fileTasks } from '../tasks/scored-tasks.js';
import { checkTaskRow, type TaskRow } from '../tasks/task-row.js';
import type { SwarmTask } from '../tasks/task.js';
import { judgeOf, loadTasks } from './task-source.js';
import { parseScorerSpec } from '../scoring/scorer-spec.js';
import type { SampleLine } from '../rollouts/rollout-file.js';
import { rolloutRef, runSample } from '../rollouts/run-rollouts.js';
import { tokenInSourceOf } from './token-in-source.js';
import { requireModelFolders } from './model-folder-trust.js';
import { workerTokenIn, type WorkerTokenIn } from './worker-token-in.js';

/** The name of every rollout job on the queue (`parl worker` runs it with `@parl/swarm`). */
export const ROLLOUT_JOB_NAME = 'swarm-rollout';

/** The options of `parl swarm run` that shape an episode: what a job carries. */
const EPISODE_OPTION_KEYS = [
  'baseUrl',
  'subagentBaseUrl',
  'model',
  'subagentModel',
  'subagents',
  'suite',
  'seed',
  'entities',
  'attributes',
  'hops',
  'scorer',
  'judgeBaseUrl',
  'judgeModel',
  'concurrency',
  'limits',
  'budget',
  'onBudget',
  'trainingStep',
  'logprobs',
  'requestTimeout',
  'tokenTrajectories',
  'toolsFor',
  'toolTimeout',
  'depth',
  // Token in: the switch, the folder's and the template's paths, the parsers' names, the context length.
  'tokenIn',
  'tokenizer',
  'chatTemplate',
  'toolCallParser',
  'reasoningParser',
  'maxModelLen',
] as const;

/** The options that name a file or folder: the job carries them absolute, so a worker in another directory reads the same path. */
const PATH_OPTION_KEYS: ReadonlySet<string> = new Set(['tokenizer', 'chatTemplate']);

/** The flags a job may carry: settings only. A job never names code or a command to run (a tools module, an MCP server): each worker has its own. */
const JOB_FLAGS: ReadonlySet<string> = new Set(EPISODE_OPTION_KEYS.map((key) => SWARM_RUN_OPTIONS[key].flag));

/** One rollout to run: the settings (as flag texts), the task's place in the suite and the sample. */
export interface RolloutJob {
  /** `parl swarm run` flag → text, for the options that shape an episode (no key: keys never travel). */
  readonly options: Readonly<Record<string, string>>;
  /** The task's place in the suite the options generate, or in the task file (0-based). */
  readonly task: number;
  /** The task's row, for a task from a task file (spec §10.1): the task travels, never its file's path. */
  readonly row?: TaskRow;
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

/** The row a file task travels as (its scorer made explicit); undefined for a suite's task. */
export function taskRowOf(task: SwarmTask): TaskRow | undefined {
  if (task.kind !== 'file') return undefined;
  return {
    id: task.id,
    prompt: task.prompt,
    ...(task.answer === undefined ? {} : { answer: task.answer }),
    ...(task.scorer === undefined ? {} : { scorer: task.scorer }),
    ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
  };
}

/** The error of a job, or a run with `--queue`, that names code for a worker to run. */
function codeRefused(field: string, scorer: string, location?: string): ParlInputError {
  return new ParlInputError(field, scorer, 'a scorer that names no code: with --queue, a job never names a module (a worker runs only its own code)', location, 'PARL_ERR_INVALID_VALUE');
}

/**
 * Refuse, before anything is queued, a run whose jobs would name code: a `module:` scorer, the
 * run's or a task's.
 *
 * @throws {@link @parl/core!ParlInputError} naming the scorer
 */
export function refuseCodeInJobs(tasks: readonly SwarmTask[], options: Pick<SwarmRunOptions, 'scorer'>): void {
  if (options.scorer !== undefined && parseScorerSpec(options.scorer).kind === 'module') throw codeRefused('--scorer', options.scorer);
  const named = tasks.find((t) => t.scorer !== undefined && parseScorerSpec(t.scorer).kind === 'module');
  if (named !== undefined) throw codeRefused('scorer', named.scorer as string, `task ${JSON.stringify(named.id)}`);
}

/** The job of task `task` (its place; its row when it came from a task file), sample `sample`, under `options`. */
export function rolloutJob(options: SwarmRunOptions, task: number, sample: number, spans: boolean, row?: TaskRow): RolloutJob {
  const texts: Record<string, string> = {};
  for (const key of EPISODE_OPTION_KEYS) {
    const value = options[key];
    // A switch is given as 'true' or not at all, as on the command line.
    if (value !== undefined && value !== false) texts[SWARM_RUN_OPTIONS[key].flag] = PATH_OPTION_KEYS.has(key) ? resolve(String(value)) : String(value);
  }
  return { options: texts, task, sample, spans, ...(row === undefined ? {} : { row }) };
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
  /**
   * The endpoint prefixes this worker trusts with its API key (`parl worker --allow-endpoint`).
   * A worker holding a key runs only jobs on these endpoints; default none.
   */
  readonly allowEndpoints?: readonly string[];
  /** The worker's own tool providers (`parl worker --tools`, `--mcp`), open for as long as it runs. */
  readonly toolProviders?: readonly ToolProvider[];
  /**
   * The folders this worker reads `--token-in` models from (`parl worker --model-folder`): a
   * job's `--tokenizer` folder and `--chat-template` file must lie under one; default none (no
   * token-in job runs).
   */
  readonly modelFolders?: readonly string[];
}

/**
 * Run one rollout job: the episode of the job's task and sample, exactly as the local path runs it.
 *
 * @param tokenIn - the worker's model folders for `--token-in` jobs (default: a set of its own, read for this job only)
 * @throws {@link @parl/core!ParlInputError} for a job that is not a rollout job of this version (a field named)
 * @throws {@link SwarmProviderError} when the orchestrator's model failed
 * @throws {@link UntrustedEndpointError} when this worker holds an API key and the job's endpoint
 *   is under none of `hooks.allowEndpoints` (before anything is sent)
 * @throws {@link @parl/core!ParlInputError} for a `--token-in` job whose folder or template is under
 *   none of `hooks.modelFolders`, or that this worker cannot read (before anything is sent)
 */
export async function runRolloutJob(data: unknown, hooks: RolloutJobHooks = {}, tokenIn: WorkerTokenIn = workerTokenIn(hooks.modelFolders ?? [])): Promise<RolloutJobResult> {
  const job = (typeof data === 'object' && data !== null ? data : {}) as Partial<RolloutJob>;
  if (typeof job.options !== 'object' || job.options === null) throw new ParlInputError('job.options', job.options, 'the flag texts of parl swarm run');
  if ('tasks-file' in job.options) throw new ParlInputError('job.options', 'tasks-file', 'no path: a job carries its task row, never a file on the coordinator\'s disk');
  for (const [flag, text] of Object.entries(job.options)) {
    if (!JOB_FLAGS.has(flag)) {
      throw new ParlInputError(`job.options.${flag}`, text, `no such setting in a rollout job: a job carries episode settings only (${[...JOB_FLAGS].join(', ')}) and never names code or a command to run; a worker's tools are its own (parl worker --tools, --mcp)`, undefined, 'PARL_ERR_INVALID_VALUE');
    }
  }
  const options = resolveOptions(SWARM_RUN_OPTIONS, job.options, 'flag');
  // Every endpoint the job names (the orchestrator's, the sub-agents', the judge's) must be trusted with this worker's keys.
  for (const endpoint of [options.baseUrl, options.subagentBaseUrl, options.judgeBaseUrl]) checkEndpointTrust(endpoint, hooks.allowEndpoints ?? [], hooks.env ?? process.env);
  const taskIndex = checkIndex(job.task, 'job.task');
  const sample = checkIndex(job.sample, 'job.sample');
  if (options.scorer !== undefined && parseScorerSpec(options.scorer).kind === 'module') throw codeRefused('job.options.scorer', options.scorer);
  const task = await jobTask(job, options, taskIndex, hooks);
  // Token in's folder, read here at the path the job names (once per worker), before any request.
  const tokenInModel = options.tokenIn === true ? await tokenIn.model(tokenInSourceOf(options)) : undefined;
  const capture = job.spans === true ? await openSpanCapture() : undefined;
  const settings = endpointSettings({ ...options, tracer: capture?.tracer, models: hooks.models, env: hooks.env, toolProviders: hooks.toolProviders, tokenInModel }, rolloutRef(task, sample));
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

/** The task of a job: its row, checked as the coordinator checks a file's rows, or task i of the suite. */
async function jobTask(job: Partial<RolloutJob>, options: SwarmRunOptions, taskIndex: number, hooks: RolloutJobHooks): Promise<SwarmTask> {
  const judgeHooks = { judge: undefined, env: hooks.env };
  if (job.row !== undefined) {
    const row = checkTaskRow(job.row, 'job.row', 'json', options.scorer);
    if (row.scorer !== undefined && parseScorerSpec(row.scorer).kind === 'module') throw codeRefused('job.row.scorer', row.scorer);
    const [task] = await fileTasks([row], options.scorer, { judge: judgeOf(options, judgeHooks) });
    return task as SwarmTask;
  }
  // Task i of a suite is the same whatever the count: generate up to it.
  const tasks = await loadTasks({ ...options, tasksFile: undefined, tasks: taskIndex + 1 }, judgeHooks);
  const task = tasks[taskIndex];
  if (task === undefined) throw new ParlInputError('job.task', job.task, 'a task of the suite');
  return task;
}

/** A short label of a rollout job for a worker's log lines: `rollout wide-s1-3/0`. */
export function rolloutJobLabel(data: unknown): string {
  const job = (typeof data === 'object' && data !== null ? data : {}) as Partial<RolloutJob>;
  const o = job.options ?? {};
  const row = job.row as { id?: unknown } | undefined;
  if (typeof row?.id === 'string') return `rollout ${row.id}/${String(job.sample)}`;
  // A suite and seed not given are the defaults the worker generates with.
  return `rollout ${o['suite'] ?? GENERATED_SUITE_DEFAULTS.suite}-s${o['seed'] ?? GENERATED_SUITE_DEFAULTS.seed}-${String(job.task)}/${String(job.sample)}`;
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
 * @throws {@link @parl/core!ParlInputError} for a `hooks.modelFolders` entry that is not a folder on this machine
 *
 * @example
 * ```ts
 * const handlers = { [ROLLOUT_JOB_NAME]: rolloutJobHandler() };
 * // then, with a Redis at url: startQueueWorker({ url, name: 'parl-sweep', concurrency: 8, handlers }) (@parl/io/queue)
 * typeof handlers[ROLLOUT_JOB_NAME].run; // "function"
 * ```
 */
export function rolloutJobHandler(hooks: RolloutJobHooks = {}): RolloutJobHandler {
  requireModelFolders(hooks.modelFolders ?? []);
  // One set of model folders for every job this handler runs: a --token-in folder is read once per worker.
  const tokenIn = workerTokenIn(hooks.modelFolders ?? []);
  return { label: (data) => rolloutJobLabel(data), run: (data) => runRolloutJob(data, hooks, tokenIn) };
}
