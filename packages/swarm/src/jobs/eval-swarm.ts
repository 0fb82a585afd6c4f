/**
 * `parl swarm eval`: each task run by the swarm and by a single agent (the same model without
 * `create_subagent` / `assign_task`), no budget; the critical steps each needs to reach each
 * r_perf target (latency to target), r_perf, sub-agents per episode and finish rate.
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
import { GENERATED_SUITE_DEFAULTS } from '../tasks/suites/suite-settings.js';

/** The means of one mode (swarm or single agent) over the tasks. */
export interface ModeSummary {
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps. */
  readonly critical_steps: number;
  /** Mean sub-agents launched per episode. */
  readonly subagents: number;
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
  readonly seed: number;
  readonly swarm: ModeSummary;
  readonly single_agent: ModeSummary;
  /** For each target: the critical-step budget each needs (null: never reached). */
  readonly latency_to_target: readonly { target: number; swarm: number | null; single_agent: number | null }[];
  /** The episodes' records. */
  readonly records: { readonly swarm: readonly SwarmRecord[]; readonly single_agent: readonly SwarmRecord[] };
  /** Each episode's final answer (the orchestrator's last message, '' when it gave none), in the records' order: what each score was given. */
  readonly answers: { readonly swarm: readonly string[]; readonly single_agent: readonly string[] };
  /** The swarm episodes' spans, one OTLP JSON export request each (for the serial-collapse findings). */
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
}

function summary(records: readonly SwarmRecord[]): ModeSummary {
  const n = records.length;
  const counts = records.map((r) => subagentCounts({ stages: r.stages }));
  const mean = (f: (r: SwarmRecord) => number): number => records.reduce((s, r) => s + f(r), 0) / n;
  return {
    r_perf: mean((r) => r.r_perf as number),
    critical_steps: mean((r) => criticalStepsOf(r)),
    subagents: counts.reduce((s, c) => s + c.launched, 0) / n,
    finish_rate: pooledFinishRate(counts),
  };
}

function criticalStepsOf(r: SwarmRecord): number {
  return criticalSteps(r.stages ?? []).critical_steps;
}

/** Evaluate the swarm against a single agent on a suite. */
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
  const swarm: SwarmRecord[] = [];
  const single: SwarmRecord[] = [];
  const answers = { swarm: [] as string[], single_agent: [] as string[] };
  const spans: string[] = [];
  const total = tasks.length * 2;
  let done = 0;
  for (const task of tasks) {
    const ran = await runEpisode(task, settingsFor(task, 'swarm'), `${task.id}/swarm`);
    swarm.push(ran.record);
    answers.swarm.push(ran.answer);
    const json = capture.take();
    if (json !== undefined) spans.push(json);
    hooks.onProgress?.(++done, total);
    const alone = await runEpisode(task, { ...settingsFor(task, 'single'), singleAgent: true }, `${task.id}/single`);
    single.push(alone.record);
    answers.single_agent.push(alone.answer);
    capture.take();
    hooks.onProgress?.(++done, total);
  }
  const outcomes = (records: readonly SwarmRecord[]) => records.map((r) => ({ critical_steps: criticalStepsOf(r), r_perf: r.r_perf as number }));
  return {
    model: options.model,
    suite: options.tasksFile === undefined ? (options.suite ?? GENERATED_SUITE_DEFAULTS.suite) : null,
    tasks_file: options.tasksFile ?? null,
    tasks: tasks.length,
    seed: options.seed ?? GENERATED_SUITE_DEFAULTS.seed,
    swarm: summary(swarm),
    single_agent: summary(single),
    latency_to_target: options.targets.map((target) => ({
      target,
      swarm: budgetToReachTarget(outcomes(swarm), target),
      single_agent: budgetToReachTarget(outcomes(single), target),
    })),
    records: { swarm, single_agent: single },
    answers,
    swarm_spans: spans,
  };
}
