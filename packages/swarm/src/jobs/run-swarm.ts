/**
 * `parl swarm run`: rollouts of a suite on an endpoint — here, or with `queue` on `parl worker`
 * processes — with the spans file when asked for. Every output is checked before any episode
 * runs: new, or a file of its own kind (a rollout file of the same configuration, a spans file);
 * the same path for two outputs, a folder, a missing folder or another file is refused, naming
 * the flag and the file.
 *
 * @module
 */
import { ParlInputError, resolveOptions } from '@parl/core';
import { claimOutputs, type OutputClaim } from '@parl/io';
import type { LanguageModel } from 'ai';
import { SWARM_RUN_OPTIONS, type SwarmRunOptions } from '../options.js';
import type { RolloutQueueEvent } from './queue-rollouts.js';
import { openRolloutFile, recogniseRolloutFile, ROLLOUT_FILE_KIND, type RolloutFile } from '../rollouts/rollout-file.js';
import { runOptionTexts, uncomparedFlags } from '../rollouts/run-option-texts.js';
import { refuseDotSegmentIds } from '../rollouts/url-template.js';
import type { RolloutSummary } from '../rollouts/rollout-summary.js';
import { collectRollouts, rolloutRef, runEach, type RolloutLine, type RolloutOptions } from '../rollouts/run-rollouts.js';
import { endpointSettings } from './episode-settings.js';
import { openSpansFile, recogniseSpansFile, SPANS_FILE_KIND, type SpansFile } from './spans-file.js';
import { loadTasks } from './task-source.js';
import type { JudgeClient } from '../scoring/judge-client.js';
import type { SwarmEpisodesFailedError } from '../rollouts/episode-failure.js';
import { openRunTools, runToolsOptionsOf, type RunTools } from '../tools/run-tools.js';
import type { TokenInModel } from '../tokens/token-in-model.js';
import { tokenInSourceOf } from './token-in-source.js';

/** Hooks of a run. */
export interface SwarmRunHooks {
  /** After each sample. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Each final line (with its advantage), in task, then sample order, as its group completes. */
  readonly onLine?: (line: RolloutLine) => void | Promise<void>;
  /** Models by name instead of the endpoint (a local run only: workers build their own). */
  readonly models?: (name: string) => LanguageModel;
  /** With `queue`: told when Redis stops answering. */
  readonly onQueueEvent?: (event: RolloutQueueEvent) => void;
  /**
   * Stop (Ctrl-C): no new episode starts, and the run rejects with `RolloutsInterruptedError`
   * once what finished is in `<out>.partial` and `<spans>.partial`; the same command resumes.
   */
  readonly signal?: AbortSignal;
  /** The judge instead of the one on `--judge-base-url` (a local run only). */
  readonly judge?: JudgeClient;
  /** With `rewardUrl`: told of each reward POST that failed (one line); the line is written all the same, with `reward_post_error` in the final file. */
  readonly onRewardError?: (message: string) => void;
}

/**
 * Run `options.tasks` × `options.groupSize` episodes; the lines go to `options.out` (resumable)
 * and `hooks.onLine`, the spans to `options.spans`. With `options.queue`, the episodes run on
 * `parl worker` processes and this process writes the same lines.
 *
 * @returns the summary of the lines
 * @throws {@link @parl/core!ParlInputError} before any episode: an option its row of `SWARM_RUN_OPTIONS`
 *   refuses (`queueName` without `queue`, `restart` without `out`…), an output that is not new nor of its own kind, two outputs on one
 *   path, a rollout file of another configuration (naming the flags that differ)
 * @throws {@link @parl/io!ParlIoError} before any episode: an output that is a folder or whose folder is missing
 * @throws {@link SwarmEpisodesFailedError} after the run, when episodes failed (spec §10.2: no line
 *   and no reward for them; the same call runs exactly those again)
 */
export async function swarmRun(given: SwarmRunOptions, hooks: SwarmRunHooks = {}): Promise<RolloutSummary> {
  // The same table checks a library call as it checks the flags.
  const options = resolveOptions(SWARM_RUN_OPTIONS, given, 'library');
  if (options.queue !== undefined && options.tools !== undefined) throw new ParlInputError('--tools', options.tools, 'not with --queue: each worker loads its own tools (parl worker --tools)');
  if (options.queue !== undefined && options.mcp !== undefined) throw new ParlInputError('--mcp', options.mcp.join(' '), 'not with --queue: each worker starts its own MCP servers (parl worker --mcp)');
  // Token in's folder, template and parsers are checked before any output is claimed, request made
  // or job queued (with --queue each worker reads the folder again, at the same path).
  const tokenInModel = options.tokenIn === true ? await loadTokenInRun(options) : undefined;
  await claimOutputs(outputClaims(options));
  const tasks = await loadTasks(options, { judge: hooks.judge });
  refuseDotSegmentIds({ '--base-url': options.baseUrl, '--subagent-base-url': options.subagentBaseUrl, '--reward-url': options.rewardUrl }, tasks.map((t) => t.id));
  if (options.queue !== undefined) {
    const { refuseCodeInJobs } = await import('./rollout-job.js');
    refuseCodeInJobs(tasks, options);
  }
  const runOptions = runOptionTexts(options);
  // With --restart the old files are removed only when the first new line is written: every input
  // below is checked and every tool started first (spec §10.6's "nothing lost").
  let spans: SpansFile | undefined;
  const file: RolloutFile | undefined =
    options.out === undefined
      ? undefined
      : await openRolloutFile(options.out, { options: runOptions, ignore: uncomparedFlags(options), restart: options.restart === true, onStartOver: async () => spans?.startOver() });
  // Checked once before any tool starts (a missing endpoint, an unknown scripted name).
  const first = tasks[0];
  // With --queue the workers build the models; token in's own refusals (a scripted model, no --base-url) are made here all the same.
  if ((options.queue === undefined || tokenInModel !== undefined) && first !== undefined) endpointSettings({ ...options, models: hooks.models, tokenInModel }, rolloutRef(first, 0));
  let tools: RunTools | undefined;
  // Opened inside the try whose finally closes them: no MCP server outlives the run.
  try {
    // The tools are listed once, before any episode (a server that does not start is an error here).
    if (options.queue === undefined) tools = await openRunTools({ ...runToolsOptionsOf(options), startTimeoutMs: options.toolTimeout * 1000 });
    // With --restart the old partial spans are kept as they are until the first new line (then emptied with the rollout files).
    if (options.spans !== undefined) spans = await openSpansFile(options.spans, { resume: file?.resumed === true || file?.restartPending === true });
    const rolloutOptions: RolloutOptions = {
      groupSize: options.groupSize,
      runOptions,
      ...(options.out === undefined ? {} : { out: options.out }),
      ...(hooks.onLine === undefined ? {} : { onLine: hooks.onLine }),
      ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
      ...(options.rewardUrl === undefined ? {} : { rewardUrl: options.rewardUrl }),
      ...(hooks.onRewardError === undefined ? {} : { onRewardError: hooks.onRewardError }),
      onProgress: async (done: number, total: number) => {
        await spans?.flush();
        hooks.onProgress?.(done, total);
      },
    };
    let summary: RolloutSummary;
    if (options.queue === undefined) {
      const input = { ...options, tracer: spans?.tracer, models: hooks.models, toolProviders: tools?.providers, tokenInModel };
      const settingsOf = (ref: Parameters<typeof endpointSettings>[1] & object) => {
        const settings = endpointSettings(input, ref);
        return { ...settings, trainingStep: settings.trainingStep ?? 0, ...(hooks.signal === undefined ? {} : { signal: hooks.signal }) };
      };
      summary = await collectRollouts(tasks, rolloutOptions, (missing, keep, fail) => runEach(missing, settingsOf, keep, fail, hooks.signal), file);
    } else {
      const { runQueuedRollouts } = await import('./queue-rollouts.js');
      summary = await runQueuedRollouts(
        tasks,
        options,
        {
          ...rolloutOptions,
          url: options.queue,
          ...(options.queueName === undefined ? {} : { queueName: options.queueName }),
          ...(spans === undefined ? {} : { spans }),
          ...(hooks.onQueueEvent === undefined ? {} : { onQueueEvent: hooks.onQueueEvent }),
        },
        file,
      );
    }
    await spans?.commit();
    return summary;
  } catch (err) {
    // With --out the spans of what finished stay in <spans>.partial for the resume, as the lines do.
    if (options.out === undefined) await spans?.discard();
    throw err;
  } finally {
    await tools?.close();
  }
}

/** Load `--token-in`'s model (lazily: a run in chat mode never loads the tokenizer libraries). */
async function loadTokenInRun(options: SwarmRunOptions): Promise<TokenInModel> {
  const source = tokenInSourceOf(options);
  const { loadTokenInModel } = await import('../tokens/token-in-model.js');
  return loadTokenInModel(source);
}

/** The checks of `--out` and `--spans` before any episode runs. */
function outputClaims(options: SwarmRunOptions): OutputClaim[] {
  const claims: OutputClaim[] = [];
  if (options.out !== undefined) claims.push({ flag: '--out', path: options.out, alsoWrites: [`${options.out}.partial`], kind: ROLLOUT_FILE_KIND, recognise: recogniseRolloutFile });
  if (options.spans !== undefined) claims.push({ flag: '--spans', path: options.spans, alsoWrites: [`${options.spans}.partial`], kind: SPANS_FILE_KIND, recognise: recogniseSpansFile });
  return claims;
}

