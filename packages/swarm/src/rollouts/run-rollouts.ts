/**
 * Rollouts for training (spec §10): tasks × `group_size` episodes; each line is the record plus
 * `group_id`, `sample`, `advantage` (GRPO, from core) and `messages`, the orchestrator's
 * transcript. With `out`, resumable: a finished task × sample is not run again.
 *
 * @module
 */
import { grpoAdvantages, ParlInputError } from '@parl/core';
import type { RolloutRef } from './url-template.js';
import type { EpisodeSettings } from '../runtime/config.js';
import { runEpisode } from '../runtime/episode.js';
import type { SwarmTask } from '../tasks/task.js';
import { DEFAULT_REWARD_POST, postReward, type RewardPostPolicy } from './reward-report.js';
import { appendSample, finishedSamples, sampleKey, writeRollouts, type SampleLine } from './rollout-file.js';

/** How to run rollouts. */
export interface RolloutOptions {
  /** Samples per task (≥ 1). */
  readonly groupSize: number;
  /** The JSONL file to write (resumable); without it the lines are only returned. */
  readonly out?: string;
  /** Called after each sample: done so far (resumed samples included) and the total. */
  readonly onProgress?: (done: number, total: number) => void | Promise<void>;
  /** POST each new line's reward fields here (a URL template: `{rollout_id}`, `{task_id}`, `{sample}`). */
  readonly rewardUrl?: string;
  /** Retries of those POSTs (default {@link DEFAULT_REWARD_POST}). */
  readonly rewardPost?: RewardPostPolicy;
  /** Told of each reward POST that failed (one line naming the URL and why); the line is written all the same. */
  readonly onRewardError?: (message: string) => void;
}

/** One rollout line: the record, its group and sample, its GRPO advantage and the transcript. */
export type RolloutLine = SampleLine & { readonly advantage: number; readonly total_reward: number };

/** A task × sample still to run. */
export interface MissingSample {
  /** The task. */
  readonly task: SwarmTask;
  /** Its place in the suite (0-based). */
  readonly taskIndex: number;
  /** The sample number (0-based). */
  readonly sample: number;
}

/** Runs the missing samples, handing each finished line to `keep` (in any order, one at a time or many). */
export type SampleRunner = (missing: readonly MissingSample[], keep: (line: SampleLine) => Promise<void>) => Promise<void>;

/** The settings of every rollout, or of each (its endpoints' URL templates expanded for it). */
export type RolloutSettings = EpisodeSettings | ((rollout: RolloutRef) => EpisodeSettings);

/** The rollout of `task`'s sample `sample`: its id (the line's `id`), task id and sample. */
export function rolloutRef(task: SwarmTask, sample: number): RolloutRef {
  return { rollout_id: `${task.id}/rollout-${sample}`, task_id: task.id, sample };
}

/** Run one sample: the episode of `task` as sample `sample`, as a line without its advantage. */
export async function runSample(task: SwarmTask, settings: RolloutSettings, sample: number): Promise<SampleLine> {
  const ref = rolloutRef(task, sample);
  const { record, messages, trajectory, subagentMessages } = await runEpisode(task, typeof settings === 'function' ? settings(ref) : settings, ref.rollout_id);
  return {
    ...record,
    group_id: task.id,
    sample,
    messages,
    ...(trajectory === undefined ? {} : trajectory),
    ...(subagentMessages === undefined ? {} : { subagent_messages: subagentMessages }),
  };
}

/**
 * The bookkeeping every way of running rollouts shares: which samples are finished already, the
 * partial file each new one is appended to, the progress, and at the end the lines in task, then
 * sample order with their GRPO advantages, written atomically. `runMissing` runs the rest.
 *
 * @throws what `runMissing` throws; what finished before stays in `<out>.partial` for the next run
 */
export async function collectRollouts(tasks: readonly SwarmTask[], options: RolloutOptions, runMissing: SampleRunner): Promise<RolloutLine[]> {
  const g = options.groupSize;
  if (!Number.isInteger(g) || g < 1) throw new ParlInputError('group_size', g, 'an integer ≥ 1');
  const done = options.out === undefined ? new Map<string, SampleLine>() : await finishedSamples(options.out);
  const total = tasks.length * g;
  let count = 0;
  const missing: MissingSample[] = [];
  for (const [taskIndex, task] of tasks.entries()) {
    for (let sample = 0; sample < g; sample++) {
      if (done.has(sampleKey(task.id, sample))) await options.onProgress?.(++count, total);
      else missing.push({ task, taskIndex, sample });
    }
  }
  // One line kept at a time: appends to the partial file never interleave.
  let keeping = Promise.resolve();
  const report = async (line: SampleLine): Promise<SampleLine> => {
    if (options.rewardUrl === undefined) return line;
    const failure = await postReward(options.rewardUrl, line, options.rewardPost ?? DEFAULT_REWARD_POST);
    if (failure === undefined) return line;
    options.onRewardError?.(failure);
    return { ...line, reward_post_error: failure };
  };
  const keep = async (finished: SampleLine): Promise<void> => {
    const line = await report(finished);
    await (keeping = keeping.then(async () => {
      if (options.out !== undefined) await appendSample(options.out, line);
      done.set(sampleKey(line.group_id, line.sample), line);
      await options.onProgress?.(++count, total);
    }));
  };
  await runMissing(missing, keep);
  await keeping;
  const lines: RolloutLine[] = tasks.flatMap((task) => {
    const group = Array.from({ length: g }, (_, sample) => done.get(sampleKey(task.id, sample)));
    if (group.some((l) => l === undefined)) throw new Error(`rollouts of ${task.id} are missing after the run`);
    const advantages = grpoAdvantages(group.map((l) => (l as SampleLine)['total_reward'] as number));
    return group.map((l, i) => ({ ...l, advantage: advantages[i] as number }) as RolloutLine);
  });
  if (options.out !== undefined) await writeRollouts(options.out, lines);
  return lines;
}

/**
 * Run `tasks` × `groupSize` episodes here, one after another (the §3 reward at
 * `settings.trainingStep`, 0 when not given).
 *
 * @returns the lines in task order, then sample order
 * @throws the first episode's error (a {@link SwarmProviderError} of the orchestrator); what
 *   finished before it stays in `<out>.partial` for the next run
 */
export async function runRollouts(tasks: readonly SwarmTask[], settings: RolloutSettings, options: RolloutOptions): Promise<RolloutLine[]> {
  const step = (s: EpisodeSettings): EpisodeSettings => ({ ...s, trainingStep: s.trainingStep ?? 0 });
  const withStep: RolloutSettings = typeof settings === 'function' ? (ref) => step(settings(ref)) : step(settings);
  return collectRollouts(tasks, options, async (missing, keep) => {
    for (const { task, sample } of missing) await keep(await runSample(task, withStep, sample));
  });
}
