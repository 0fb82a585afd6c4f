/**
 * `parl worker`: take jobs from the Redis queue (BullMQ, `@parl/io/queue`) that `parl sweep
 * --queue` and `parl swarm run --queue` fill, run each here and send its result back through the
 * queue. A job's name says what it is: `train` (a sweep run, trained in a local thread with
 * `@parl/sim`) or `swarm-rollout` (one episode on the job's endpoint with `@parl/swarm`, the API
 * key read from this process's environment). A worker without the package a job needs fails that
 * job at once with the line that says how to install it. Runs until it is stopped; a worker that
 * stops or dies mid-job has its jobs retried by another after `--stalled-after` seconds.
 *
 * @module
 */
import { DEFAULT_QUEUE_NAME, resolveQueueUrl } from '@parl/io';
import { startQueueWorker, UnrunnableJobError, type QueueJobHandler, type QueueWorkerHandle } from '@parl/io/queue';
import { CliError } from '../../errors.js';
import { logLine, type CliIo } from '../../terminal/cli-io.js';
import { formatNumber } from '../report/format-number.js';
import { importOptional } from '../../optional-packages.js';
import type { RunToolSettings } from '@parl/swarm/options';

/** Options of {@link workerCommand}, one per flag. */
/**
 * With `@parl/swarm` installed, the worker's own tools for swarm rollouts: `--tools FILE` and the
 * `--mcp` servers with their credentials (swarm's `RUN_TOOL_OPTIONS` rows, declared there once).
 */
export interface WorkerCommandOptions extends Partial<RunToolSettings> {
  /** `--queue URL`: the Redis of the queue. */
  readonly queue: string;
  /** `--queue-name NAME` (default `parl-sweep`). */
  readonly queueName?: string;
  /** `--threads N`: jobs at a time; sweep runs each in its own thread (default: one per core). */
  readonly threads?: number;
  /** `--stalled-after S`: seconds without a lock renewal before a job is retried elsewhere (default 30). */
  readonly stalledAfter?: number;
  /** `--quiet`: no line per job on stderr. */
  readonly quiet?: boolean;
  /**
   * `--allow-endpoint URL_PREFIX` (repeatable): the endpoints this worker sends its API key to,
   * normalised (`@parl/swarm`'s `WORKER_ROLLOUT_OPTIONS`). A swarm rollout naming any other
   * endpoint fails, named, while the worker holds a key.
   */
  readonly allowEndpoints?: readonly string[];
  /**
   * `--model-folder DIR` (repeatable): the folders this worker reads `--token-in` models from. A
   * swarm rollout whose `--tokenizer` folder or `--chat-template` file lies under none of them
   * fails, named; without any, no token-in rollout runs here.
   */
  readonly modelFolders?: readonly string[];
}

/** The job names a worker knows, with the package that runs each (the names its packages export; here for a package that is missing). */
const JOB_KINDS = { '@parl/sim': 'train', '@parl/swarm': 'swarm-rollout' } as const;

/** A handler that fails every job of its name at once with `line` (its package is not installed). */
function unrunnable(line: string): QueueJobHandler {
  return {
    label: (_data, jobId) => `job ${jobId}`,
    run: () => Promise.reject(new UnrunnableJobError(line)),
  };
}

/** A job kind: its name and handler, or the handler that says how to install what it needs. */
async function jobKind(
  pkg: keyof typeof JOB_KINDS,
  load: () => Promise<{ readonly name: string; readonly handler: QueueJobHandler }>,
): Promise<{ readonly name: string; readonly handler: QueueJobHandler; readonly installed: boolean }> {
  try {
    return { ...(await importOptional(pkg, 'worker', load)), installed: true };
  } catch (err) {
    if (err instanceof CliError) return { name: JOB_KINDS[pkg], handler: unrunnable(err.message), installed: false };
    throw err;
  }
}

/**
 * Start a worker; logs a line per job started, finished or failed on stderr. Resolves with the
 * running worker; it runs until its `close()` or the process ends.
 *
 * @throws {@link @parl/core!ParlInputError} for a `--queue` that is not a Redis URL
 * @throws {@link CliError} when neither `@parl/sim` nor `@parl/swarm` is installed (it could run no job)
 *
 * @example
 * ```ts
 * const worker = await workerCommand({ queue: redisUrl, threads: 4, quiet: true }, io); // redisUrl: such as 'redis://10.0.0.5:6379'
 * await worker.close();
 * await workerCommand({ queue: 'http://10.0.0.5:6379' }, io);
 * // throws: --queue
 * ```
 */
export async function workerCommand(options: WorkerCommandOptions, io: CliIo): Promise<QueueWorkerHandle> {
  const queue = resolveQueueUrl(options.queue);
  const { availableParallelism } = await import('node:os');
  const threads = options.threads ?? availableParallelism();
  const sweep = await jobKind('@parl/sim', async () => {
    const sim = await import('@parl/sim/queue');
    return { name: sim.SWEEP_JOB_NAME, handler: sim.sweepJobHandler(threads) };
  });
  const wantsTools = options.tools !== undefined || (options.mcp?.length ?? 0) > 0;
  const swarm = await jobKind('@parl/swarm', async () => {
    const rollouts = await import('@parl/swarm');
    const allowEndpoints = options.allowEndpoints ?? [];
    const modelFolders = options.modelFolders ?? [];
    // The worker's own tools, listed once before it takes a job (a server that does not start is an error here).
    const open = wantsTools ? await rollouts.openRunTools(options) : undefined;
    if (open === undefined) return { name: rollouts.ROLLOUT_JOB_NAME, handler: rollouts.rolloutJobHandler({ allowEndpoints, modelFolders }) };
    // The worker's close() closes the handlers: the MCP clients with them.
    return { name: rollouts.ROLLOUT_JOB_NAME, handler: { ...rollouts.rolloutJobHandler({ allowEndpoints, modelFolders, toolProviders: open.providers }), close: () => open.close() } };
  });
  if (wantsTools && !swarm.installed) throw new CliError(`parl worker --tools / --mcp are for swarm rollouts, which need @parl/swarm: npm install @parl/swarm`, 1);
  if (!sweep.installed && !swarm.installed) {
    throw new CliError('parl worker needs @parl/sim (sweep runs) or @parl/swarm (swarm rollouts), and neither is installed: npm install @parl/sim, or npm install @parl/swarm', 1);
  }
  const quiet = options.quiet === true;
  const worker = startQueueWorker({
    url: queue,
    name: options.queueName ?? DEFAULT_QUEUE_NAME,
    concurrency: threads,
    handlers: { [sweep.name]: sweep.handler, [swarm.name]: swarm.handler },
    unknownJob: (name) => `parl worker runs ${sweep.name} and ${swarm.name} jobs, not ${name}: is this worker older than the command that queued it?`,
    ...(options.stalledAfter === undefined ? {} : { stalledAfterSeconds: options.stalledAfter }),
    onEvent: (e) => {
      if (e.kind === 'error') logLine(io, `parl worker: ${e.error}`);
      else if (e.kind === 'failed') logLine(io, `parl worker: ${e.label} failed: ${e.error}`);
      else if (!quiet && e.kind === 'started') logLine(io, `parl worker: ${e.label} started`);
      else if (!quiet && e.kind === 'finished') logLine(io, `parl worker: ${e.label} finished in ${formatNumber(e.wallSeconds, 3)}s`);
    },
  });
  const runs = [sweep.installed ? 'sweep runs' : undefined, swarm.installed ? 'swarm rollouts' : undefined].filter((x) => x !== undefined).join(' and ');
  if (!quiet) logLine(io, `parl worker: taking ${runs} from ${worker.where}, ${threads} at a time; stop with Ctrl-C (jobs in progress go back on the queue)`);
  const modelFolders = options.modelFolders ?? [];
  if (swarm.installed && !quiet && modelFolders.length > 0) {
    const { resolve } = await import('node:path');
    logLine(io, `parl worker: --token-in rollouts read models only under ${modelFolders.map((d) => resolve(d)).join(', ')}`);
  }
  if (swarm.installed && !quiet) {
    const { API_KEY_VARIABLES } = await import('@parl/swarm');
    const key = API_KEY_VARIABLES.find((v) => (process.env[v] ?? '') !== '');
    const allowed = options.allowEndpoints ?? [];
    if (key !== undefined) {
      logLine(
        io,
        allowed.length === 0
          ? `parl worker: ${key} is set and no --allow-endpoint is given: swarm rollouts fail rather than send the key to the endpoint a job names`
          : `parl worker: ${key} goes only to endpoints under ${allowed.join(', ')}`,
      );
    }
  }
  return worker;
}
