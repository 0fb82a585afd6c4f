/**
 * `parl swarm eval`: each task run by the swarm and by a single agent (the same model without
 * `create_subagent` / `assign_task`), no budget; the critical steps each needs to reach each
 * r_perf target (latency to target), r_perf, sub-agents per episode and finish rate.
 *
 * An error of an episode (spec §10.2: a scorer's or the judge's failure, a policy call past its
 * retries) is handled as `parl swarm run` handles it, through the same code
 * ({@link isEpisodeError}, {@link SwarmEpisodesFailedError}): the episode is not graded — never
 * a made-up 0 — and stays out of the totals, which say how many episodes were graded and how many
 * failed; the evaluation goes on with the other episodes and then rejects, carrying the
 * evaluation of the graded ones. Given the evaluation of an earlier call with the same settings
 * (`previous`), only its failed and missing episodes run again.
 *
 * @module
 */
import { budgetToReachTarget, criticalSteps, pooledFinishRate, subagentCounts } from '@parl/core';
import type { LanguageModel } from 'ai';
import type { SwarmEvalOptions } from '../options.js';
import type { EpisodeSettings } from '../runtime/config.js';
import { runEpisode } from '../runtime/episode.js';
import type { SwarmRecord } from '../runtime/swarm-record.js';
import type { JudgeClient } from '../scoring/judge-client.js';
import type { SwarmTask } from '../tasks/task.js';
import { openRunTools, runToolsOptionsOf } from '../tools/run-tools.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import { endpointSettings } from './episode-settings.js';
import { openSpanCapture } from './spans-file.js';
import { loadTasks } from './task-source.js';
import { refuseDotSegmentIds } from '../rollouts/url-template.js';
import { episodeFailure, isEpisodeError, SwarmEpisodesFailedError, type EpisodeFailure } from '../rollouts/episode-failure.js';
import { differences, type RunOptionTexts } from '../rollouts/rollout-file.js';
import { runOptionTexts } from '../rollouts/run-option-texts.js';
import { GENERATED_SUITE_DEFAULTS } from '../tasks/suites/suite-settings.js';

/**
 * The means of one mode (swarm or single agent) over its graded episodes (a failed one is in none
 * of them); each mean is null when none of its episodes was graded (never NaN, never 0).
 */
export interface ModeSummary {
  /** Episodes graded: the means are over these. */
  readonly graded: number;
  /** Episodes that failed (spec §10.2: their grade is unknown, never counted as 0). */
  readonly failed: number;
  /** Mean r_perf; null when none was graded. */
  readonly r_perf: number | null;
  /** Mean critical steps; null when none was graded. */
  readonly critical_steps: number | null;
  /** Mean sub-agents launched per episode; null when none was graded. */
  readonly subagents: number | null;
  /** Completed over assigned sub-agents, over all episodes (`@parl/core`'s `pooledFinishRate`); null when none was launched. */
  readonly finish_rate: number | null;
}

/** The evaluation of a model. */
export interface SwarmEvaluation {
  readonly model: string;
  /** The task suite run (`--suite`); null when the tasks came from a file. */
  readonly suite: string | null;
  /** The tasks file's path (`--tasks-file`); null when a suite ran. */
  readonly tasks_file: string | null;
  /** Tasks run (each by both modes). */
  readonly tasks: number;
  /** The tasks' ids, in the order they ran (the records of a mode hold those of its graded episodes). */
  readonly task_ids: readonly string[];
  readonly seed: number;
  /** The flags that shaped the episodes (as `rollout_options` of `parl swarm run`): a rerun resumes only an evaluation with the same ones. */
  readonly eval_options: RunOptionTexts;
  /** Episodes taken from `previous` (a resumed evaluation) instead of run again. */
  readonly resumed: number;
  readonly swarm: ModeSummary;
  readonly single_agent: ModeSummary;
  /** For each target: the critical-step budget each needs (null: never reached). */
  readonly latency_to_target: readonly { target: number; swarm: number | null; single_agent: number | null }[];
  /** The episodes that failed (not graded), each named; empty when every episode was graded. */
  readonly failures: readonly EpisodeFailure[];
  /** The graded episodes' records. */
  readonly records: { readonly swarm: readonly SwarmRecord[]; readonly single_agent: readonly SwarmRecord[] };
  /** Each episode's final answer (the orchestrator's last message, '' when it gave none), in the records' order: what each score was given. */
  readonly answers: { readonly swarm: readonly string[]; readonly single_agent: readonly string[] };
  /** The spans of the swarm episodes run by this call (not the resumed ones), one OTLP JSON export request each (for the serial-collapse findings). */
  readonly swarm_spans: readonly string[];
}

/** Hooks of an evaluation. */
export interface SwarmEvalHooks {
  /** After each episode (2 per task). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Models by name instead of the endpoint. */
  readonly models?: (name: string) => LanguageModel;
  /** The judge instead of the one on `--judge-base-url`. */
  readonly judge?: JudgeClient;
  /**
   * An earlier evaluation (as written to `--out`) that had failures: when it was run with the same
   * settings on the same tasks, its graded episodes are kept and only the others run.
   */
  readonly previous?: PreviousEvaluation;
}

/** What a resume reads of an earlier evaluation. */
export type PreviousEvaluation = Pick<SwarmEvaluation, 'eval_options' | 'tasks' | 'failures' | 'records' | 'answers'>;

/** The two modes, as the evaluation's keys and the episodes' id suffixes. */
const MODES = [
  ['swarm', 'swarm'],
  ['single_agent', 'single'],
] as const;

function summary(records: readonly SwarmRecord[], failed: number): ModeSummary {
  const n = records.length;
  const counts = records.map((r) => subagentCounts({ stages: r.stages }));
  const mean = (f: (r: SwarmRecord, i: number) => number): number | null => (n === 0 ? null : records.reduce((s, r, i) => s + f(r, i), 0) / n);
  return {
    graded: n,
    failed,
    r_perf: mean((r) => r.r_perf as number),
    critical_steps: mean((r) => criticalStepsOf(r)),
    subagents: mean((_r, i) => counts[i]?.launched ?? 0),
    finish_rate: pooledFinishRate(counts),
  };
}

function criticalStepsOf(r: SwarmRecord): number {
  return criticalSteps(r.stages ?? []).critical_steps;
}

/**
 * Evaluate the swarm against a single agent on a suite.
 *
 * @throws {@link SwarmEpisodesFailedError} (`summary`: the evaluation of the graded episodes) after
 *   every other episode ran, when episodes failed (spec §10.2)
 */
export async function swarmEval(options: SwarmEvalOptions, hooks: SwarmEvalHooks = {}): Promise<SwarmEvaluation> {
  const tasks = await loadTasks(options, { judge: hooks.judge });
  refuseDotSegmentIds({ '--base-url': options.baseUrl, '--subagent-base-url': options.subagentBaseUrl }, tasks.map((t) => t.id));
  // The tools are listed once, before any episode (a server that does not start is an error here).
  const tools = await openRunTools({ ...runToolsOptionsOf(options), startTimeoutMs: options.toolTimeout * 1000 });
  try {
    return await evaluate(options, tasks, tools.providers, hooks);
  } finally {
    await tools.close();
  }
}

async function evaluate(options: SwarmEvalOptions, tasks: readonly SwarmTask[], toolProviders: readonly ToolProvider[], hooks: SwarmEvalHooks): Promise<SwarmEvaluation> {
  const capture = await openSpanCapture();
  const input = { ...options, tracer: capture.tracer, models: hooks.models, toolProviders };
  const settingsFor = (task: SwarmTask, mode: string): EpisodeSettings => endpointSettings(input, { rollout_id: `${task.id}/${mode}`, task_id: task.id, sample: 0 });
  // Checked once before any episode runs (a missing endpoint, an unknown scripted name).
  if (tasks[0] !== undefined) settingsFor(tasks[0], 'swarm');
  const evalOptions = runOptionTexts(options);
  const kept = resumable(hooks.previous, evalOptions, tasks);
  const records = { swarm: [] as SwarmRecord[], single_agent: [] as SwarmRecord[] };
  const answers = { swarm: [] as string[], single_agent: [] as string[] };
  const failures: EpisodeFailure[] = [];
  const failed = { swarm: 0, single_agent: 0 };
  const spans: string[] = [];
  const total = tasks.length * 2;
  let done = 0;
  let resumed = 0;
  for (const task of tasks) {
    for (const [mode, suffix] of MODES) {
      const id = `${task.id}/${suffix}`;
      const old = kept?.get(id);
      if (old !== undefined) {
        records[mode].push(old.record);
        answers[mode].push(old.answer);
        resumed++;
        hooks.onProgress?.(++done, total);
        continue;
      }
      try {
        const ran = await runEpisode(task, { ...settingsFor(task, suffix), ...(mode === 'single_agent' ? { singleAgent: true } : {}) }, id);
        records[mode].push(ran.record);
        answers[mode].push(ran.answer);
        const json = capture.take();
        if (mode === 'swarm' && json !== undefined) spans.push(json);
      } catch (err) {
        // An error of the episode (spec §10.2), as a run has it: not graded, named, the rest goes on.
        capture.take();
        if (!isEpisodeError(err)) throw err;
        failures.push(episodeFailure(id, task.id, 0, err));
        failed[mode]++;
      }
      hooks.onProgress?.(++done, total);
    }
  }
  const swarm = records.swarm;
  const single = records.single_agent;
  const outcomes = (records: readonly SwarmRecord[]) => records.map((r) => ({ critical_steps: criticalStepsOf(r), r_perf: r.r_perf as number }));
  const evaluation: SwarmEvaluation = {
    model: options.model,
    suite: options.tasksFile === undefined ? (options.suite ?? GENERATED_SUITE_DEFAULTS.suite) : null,
    tasks_file: options.tasksFile ?? null,
    tasks: tasks.length,
    task_ids: tasks.map((t) => t.id),
    seed: options.seed ?? GENERATED_SUITE_DEFAULTS.seed,
    eval_options: evalOptions,
    resumed,
    swarm: summary(swarm, failed.swarm),
    single_agent: summary(single, failed.single_agent),
    latency_to_target: options.targets.map((target) => ({
      target,
      swarm: budgetToReachTarget(outcomes(swarm), target),
      single_agent: budgetToReachTarget(outcomes(single), target),
    })),
    failures,
    records,
    answers,
    swarm_spans: spans,
  };
  if (failures.length > 0) throw new SwarmEpisodesFailedError(failures, evaluation, options.out !== undefined, 'eval');
  return evaluation;
}

/**
 * The graded episodes of `previous` by episode id (`task/swarm`, `task/single`), when it is an
 * evaluation with failures of the same settings on the same tasks; otherwise undefined (everything
 * runs, as for a new evaluation) — a file that is not whole (a field missing or of another type,
 * edited or cut short) included.
 */
function resumable(previous: PreviousEvaluation | undefined, evalOptions: RunOptionTexts, tasks: readonly SwarmTask[]): Map<string, { record: SwarmRecord; answer: string }> | undefined {
  if (previous === undefined || !Array.isArray(previous.failures) || previous.failures.length === 0) return undefined;
  const theirs: unknown = previous.eval_options;
  if (typeof theirs !== 'object' || theirs === null || differences(theirs as RunOptionTexts, evalOptions, new Set()).length > 0) return undefined;
  if (previous.tasks !== tasks.length) return undefined;
  const ids = new Set(tasks.map((t) => t.id));
  const kept = new Map<string, { record: SwarmRecord; answer: string }>();
  for (const [mode, suffix] of MODES) {
    const records: unknown = previous.records?.[mode] ?? [];
    if (!Array.isArray(records)) return undefined;
    for (const [i, record] of (records as unknown[]).entries()) {
      const taskId = typeof record === 'object' && record !== null ? (record as { task_id?: unknown }).task_id : undefined;
      if (typeof taskId !== 'string' || !ids.has(taskId)) return undefined;
      const answer: unknown = previous.answers?.[mode]?.[i];
      kept.set(`${taskId}/${suffix}`, { record: record as SwarmRecord, answer: typeof answer === 'string' ? answer : '' });
    }
  }
  return kept;
}
