/**
 * Rollouts for training (spec §10): tasks × `group_size` episodes; each line is the record plus
 * `group_id`, `sample`, `rollout_options`, `advantage` (GRPO, from core) and `messages`, the
 * orchestrator's transcript. With `out`, resumable: a finished task × sample is not run again.
 * Lines are streamed: each finished sample goes to `<out>.partial` at once, and each group, as soon
 * as it and every group before it are complete, gets its advantages and goes to the final file
 * (and `onLine`) — memory holds where lines are, never the lines of the whole run. An error of an
 * episode (spec §10.2: a scorer's, the judge's, the policy's past its retries) writes no line and
 * posts no reward: the run goes on, its group is left out of the final file, and the run rejects
 * at the end with {@link SwarmEpisodesFailedError}; the partial file keeps what finished, so the
 * same command runs exactly the failed episodes. A reward is posted only once its line is in the
 * partial file, synced to disk (spec §10.6), with the rollout id as its `Idempotency-Key`.
 *
 * @module
 */
import { atomicFileSink, type TextSink } from '@parl/io';
import { grpoAdvantages, ParlInputError } from '@parl/core';
import type { RolloutRef } from './url-template.js';
import type { EpisodeSettings } from '../runtime/config.js';
import { runEpisode } from '../runtime/episode.js';
import type { SwarmTask } from '../tasks/task.js';
import { episodeFailure, isEpisodeError, SwarmEpisodesFailedError, type EpisodeFailure } from './episode-failure.js';
import { RolloutsInterruptedError } from './interrupted.js';
import { DEFAULT_REWARD_POST, postReward, type RewardPostPolicy } from './reward-report.js';
import { openRolloutFile, readSample, sampleKey, sampleLine, type RolloutFile, type RunOptionTexts, type SampleLine, type SampleRef } from './rollout-file.js';
import { RolloutTally, type RolloutSummary } from './rollout-summary.js';

/** How to run rollouts. */
export interface RolloutOptions {
  /** Samples per task (≥ 1). */
  readonly groupSize: number;
  /** The JSONL file to write (resumable); without it the lines only go to `onLine`. */
  readonly out?: string;
  /** The flag texts of the options that shaped the episodes: every line carries them, and a resume must match them (default none). */
  readonly runOptions?: RunOptionTexts;
  /** With `out`: start over, removing the rollout file and its partial file first. */
  readonly restart?: boolean;
  /** Called after each sample: done so far (resumed samples included) and the total. */
  readonly onProgress?: (done: number, total: number) => void | Promise<void>;
  /** Each final line (with its advantage), in task, then sample order, as soon as its group and those before it are complete. */
  readonly onLine?: (line: RolloutLine) => void | Promise<void>;
  /** Stop: no new episode starts, and the run rejects with {@link RolloutsInterruptedError} once what finished is written. */
  readonly signal?: AbortSignal;
  /** POST each new line's reward fields here (a URL template: `{rollout_id}`, `{task_id}`, `{sample}`). */
  readonly rewardUrl?: string;
  /** Retries of those POSTs (default {@link DEFAULT_REWARD_POST}). */
  readonly rewardPost?: RewardPostPolicy;
  /** Told of each reward POST that failed (one line naming the URL and why); the line is written all the same, with `reward_post_error` in the final file. */
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

/**
 * Runs the missing samples, handing each finished line to `keep` (in any order, one at a time or
 * many) and each episode that failed to `fail`, which takes an error of an episode (see
 * {@link isEpisodeError}) and rethrows any other error.
 */
export type SampleRunner = (missing: readonly MissingSample[], keep: (line: SampleLine) => Promise<void>, fail: (sample: MissingSample, error: unknown) => void) => Promise<void>;

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

/** A promise that rejects when `signal` aborts (never, without one). */
function aborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal === undefined) return;
    const fire = (): void => reject(new RolloutsInterruptedError());
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

/**
 * The bookkeeping every way of running rollouts shares: which samples are finished already, the
 * partial file each new one is appended to, the progress, and the final lines in task, then
 * sample order with their GRPO advantages, streamed group by group to the final file (written
 * atomically) and `onLine`. `runMissing` runs the rest. `opened`: the rollout file, when the
 * caller opened it already (to check it before anything else).
 *
 * @returns the summary of every line (resumed ones included)
 * @throws what `runMissing` throws, or {@link RolloutsInterruptedError} when `signal` aborts; what
 *   finished before stays in `<out>.partial` for the next run
 * @throws {@link SwarmEpisodesFailedError} after every other episode ran and was written, when
 *   some episodes failed
 */
export async function collectRollouts(tasks: readonly SwarmTask[], options: RolloutOptions, runMissing: SampleRunner, opened?: RolloutFile): Promise<RolloutSummary> {
  const g = options.groupSize;
  if (!Number.isInteger(g) || g < 1) throw new ParlInputError('group_size', g, 'an integer ≥ 1');
  const runOptions = options.runOptions ?? {};
  const file: RolloutFile | undefined =
    opened ?? (options.out === undefined ? undefined : await openRolloutFile(options.out, { options: runOptions, ...(options.restart === undefined ? {} : { restart: options.restart }) }));
  const refs = new Map<string, SampleRef>(file?.finished ?? []);
  const total = tasks.length * g;
  let count = 0;
  const missing: MissingSample[] = [];
  for (const [taskIndex, task] of tasks.entries()) {
    for (let sample = 0; sample < g; sample++) {
      if (refs.has(sampleKey(task.id, sample))) await options.onProgress?.(++count, total);
      else missing.push({ task, taskIndex, sample });
    }
  }
  const tally = new RolloutTally(total - missing.length);
  const sink: TextSink | undefined = file === undefined ? undefined : await atomicFileSink(file.path, '--out');
  let next = 0;
  /** The episodes that failed (spec §10.2), by {@link sampleKey}. */
  const failed = new Map<string, EpisodeFailure>();
  /** Reward POSTs that failed, by {@link sampleKey}: named on the final line. */
  const postErrors = new Map<string, string>();
  /** Write out every complete group from the first one not yet written; a group with a failed episode is left out (it has no advantages). */
  const flushGroups = async (): Promise<void> => {
    for (; next < tasks.length; next++) {
      const task = tasks[next] as SwarmTask;
      const group: SampleRef[] = [];
      let groupFailed = false;
      for (let sample = 0; sample < g; sample++) {
        const ref = refs.get(sampleKey(task.id, sample));
        if (ref !== undefined) group.push(ref);
        else if (failed.has(sampleKey(task.id, sample))) groupFailed = true;
        else return;
      }
      if (groupFailed) continue;
      const advantages = grpoAdvantages(group.map((r) => r.total_reward));
      for (const [i, ref] of group.entries()) {
        const postError = postErrors.get(sampleKey(task.id, i));
        const line = { ...(await readSample(ref)), ...(postError === undefined ? {} : { reward_post_error: postError }), advantage: advantages[i] as number } as RolloutLine;
        await sink?.write(`${JSON.stringify(line)}\n`);
        tally.add(line);
        await options.onLine?.(line);
        refs.delete(sampleKey(task.id, i));
      }
    }
  };
  // After a failure or an interrupt, an episode still finishing is dropped: the partial file holds
  // exactly the samples the progress counted, and the next run runs it again.
  let stopped = false;
  // One line kept at a time: appends to the partial file never interleave.
  let keeping = Promise.resolve();
  /** With `rewardUrl`: POST the line's reward (its line is durable already); a failure is told and kept for its final line. */
  const report = async (line: SampleLine): Promise<void> => {
    if (options.rewardUrl === undefined) return;
    const failure = await postReward(options.rewardUrl, line, options.rewardPost ?? DEFAULT_REWARD_POST);
    if (failure === undefined) return;
    postErrors.set(sampleKey(line.group_id, line.sample), failure);
    options.onRewardError?.(failure);
  };
  const keep = async (finished: SampleLine): Promise<void> => {
    // First the line, synced to disk (and counted: the partial file holds what the progress
    // counted); then its reward; then its group may go out.
    let ref: SampleRef | undefined;
    const kept = sampleLine(finished, runOptions);
    await (keeping = keeping.then(async () => {
      if (stopped) return;
      ref = file === undefined ? { group_id: kept.group_id, sample: kept.sample, total_reward: kept['total_reward'] as number, at: { line: kept } } : await file.append(kept);
      tally.ran++;
      await options.onProgress?.(++count, total);
    }));
    if (ref === undefined) return;
    await report(kept);
    await (keeping = keeping.then(async () => {
      if (stopped || ref === undefined) return;
      refs.set(sampleKey(kept.group_id, kept.sample), ref);
      await flushGroups();
    }));
  };
  const fail = (m: MissingSample, error: unknown): void => {
    if (!isEpisodeError(error)) throw error;
    // After an interrupt nothing more is written: an episode still finishing is dropped.
    if (stopped) return;
    failed.set(sampleKey(m.task.id, m.sample), episodeFailure(rolloutRef(m.task, m.sample).rollout_id, m.task.id, m.sample, error));
    // A failed episode settles its group: the groups after it may go out now.
    keeping = keeping.then(flushGroups);
  };
  try {
    await flushGroups();
    await Promise.race([runMissing(missing, keep, fail), aborted(options.signal)]);
    await keeping;
    if (next < tasks.length) throw new Error(`rollouts of ${tasks[next]?.id} are missing after the run`);
    // A restart that wrote no line (every episode failed) leaves the old file as it was.
    if (file?.restartPending === true) await sink?.abort();
    else await sink?.finish();
  } catch (err) {
    // What was appended stays in the partial file; only the unfinished final file goes.
    stopped = true;
    await keeping.catch(() => undefined);
    await sink?.abort();
    throw err;
  }
  if (failed.size > 0) throw new SwarmEpisodesFailedError([...failed.values()], tally.summary(), file !== undefined);
  if (file?.restartPending !== true) await file?.dropPartial();
  return tally.summary();
}

/**
 * Run `tasks` × `groupSize` episodes here, one after another (the §3 reward at
 * `settings.trainingStep`, 0 when not given).
 *
 * @returns the summary of the lines (which went to `options.out` and `options.onLine`)
 * @throws {@link SwarmEpisodesFailedError} once every other episode ran, when episodes failed
 *   (a scorer's or the judge's failure, the orchestrator's {@link SwarmProviderError}), or
 *   {@link RolloutsInterruptedError}; what finished before stays in `<out>.partial` for the next run
 */
export async function runRollouts(tasks: readonly SwarmTask[], settings: RolloutSettings, options: RolloutOptions): Promise<RolloutSummary> {
  // The run's signal cancels the episode in flight too (spec §10.6: its calls are aborted, no line is written).
  const step = (s: EpisodeSettings): EpisodeSettings => ({ ...s, trainingStep: s.trainingStep ?? 0, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const withStep: RolloutSettings = typeof settings === 'function' ? (ref) => step(settings(ref)) : step(settings);
  return collectRollouts(tasks, options, (missing, keep, fail) => runEach(missing, withStep, keep, fail, options.signal));
}

/**
 * Run `missing` here, one after another: each finished line to `keep`, each error of an episode
 * to `fail` (the run goes on); stops starting episodes once `signal` aborts.
 */
export async function runEach(missing: readonly MissingSample[], settings: RolloutSettings, keep: (line: SampleLine) => Promise<void>, fail: (sample: MissingSample, error: unknown) => void, signal?: AbortSignal): Promise<void> {
  for (const m of missing) {
    if (signal?.aborted === true) return;
    let line: SampleLine;
    try {
      line = await runSample(m.task, settings, m.sample);
    } catch (err) {
      fail(m, err);
      continue;
    }
    await keep(line);
  }
}
