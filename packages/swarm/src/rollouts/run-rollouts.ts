/**
 * Rollouts for training (spec §10): tasks × `group_size` episodes; each line is the record plus
 * `group_id`, `sample`, `advantage` (GRPO, from core) and `messages`, the orchestrator's
 * transcript. With `out`, resumable: a finished task × sample is not run again.
 *
 * @module
 */
import { grpoAdvantages, ParlInputError } from '@parl/core';
import type { EpisodeSettings } from '../runtime/config.js';
import { runEpisode } from '../runtime/episode.js';
import type { SwarmTask } from '../tasks/task.js';
import { appendSample, finishedSamples, sampleKey, writeRollouts, type SampleLine } from './rollout-file.js';

/** How to run rollouts. */
export interface RolloutOptions {
  /** Samples per task (≥ 1). */
  readonly groupSize: number;
  /** The JSONL file to write (resumable); without it the lines are only returned. */
  readonly out?: string;
  /** Called after each sample: done so far (resumed samples included) and the total. */
  readonly onProgress?: (done: number, total: number) => void | Promise<void>;
}

/** One rollout line: the record, its group and sample, its GRPO advantage and the transcript. */
export type RolloutLine = SampleLine & { readonly advantage: number; readonly total_reward: number };

/**
 * Run `tasks` × `groupSize` episodes (the §3 reward at `settings.trainingStep`, 0 when not given).
 *
 * @returns the lines in task order, then sample order
 * @throws the first episode's error (a {@link SwarmProviderError} of the orchestrator); what
 *   finished before it stays in `<out>.partial` for the next run
 */
export async function runRollouts(tasks: readonly SwarmTask[], settings: EpisodeSettings, options: RolloutOptions): Promise<RolloutLine[]> {
  const g = options.groupSize;
  if (!Number.isInteger(g) || g < 1) throw new ParlInputError('group_size', g, 'an integer ≥ 1');
  const withStep: EpisodeSettings = { ...settings, trainingStep: settings.trainingStep ?? 0 };
  const done = options.out === undefined ? new Map<string, SampleLine>() : await finishedSamples(options.out);
  const total = tasks.length * g;
  let count = 0;
  const groups: SampleLine[][] = [];
  for (const task of tasks) {
    const group: SampleLine[] = [];
    for (let sample = 0; sample < g; sample++) {
      let line = done.get(sampleKey(task.id, sample));
      if (line === undefined) {
        const { record, messages } = await runEpisode(task, withStep, `${task.id}/rollout-${sample}`);
        line = { ...record, group_id: task.id, sample, messages };
        if (options.out !== undefined) await appendSample(options.out, line);
      }
      group.push(line);
      await options.onProgress?.(++count, total);
    }
    groups.push(group);
  }
  const lines: RolloutLine[] = groups.flatMap((group) => {
    const advantages = grpoAdvantages(group.map((l) => l['total_reward'] as number));
    return group.map((l, i) => ({ ...l, advantage: advantages[i] as number }) as RolloutLine);
  });
  if (options.out !== undefined) await writeRollouts(options.out, lines);
  return lines;
}
