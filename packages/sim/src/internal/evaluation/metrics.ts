/**
 * Scoring episodes with `@parl/core` and averaging them into the spec §6 metrics.
 *
 * @module
 */
import {
  criticalStepsOfStages,
  diagnose,
  rewardOfEpisode,
  validateRecord,
  type NormalizedEpisode,
  type NormalizedStage,
  type ResolvedRewardConfig,
  type RewardBreakdown,
  type StepMetrics,
} from '@parl/core';
import type { SimEpisodeRecord } from '../../engine/episode-records.js';
import { TRUNCATED_END_REASONS } from '../../engine/swarm-batch.js';

/** An episode with its core-computed reward and critical steps. */
export interface ScoredEpisode {
  /** The spec §5 record. */
  readonly record: SimEpisodeRecord;
  /** The record validated by core. */
  readonly episode: NormalizedEpisode;
  /** The spec §3 reward, by core. */
  readonly reward: RewardBreakdown;
  /** Critical steps of the record's stages, by core. */
  readonly criticalSteps: number;
  /** Total steps (spec §2 work) of the record's stages, by core. */
  readonly totalSteps: number;
}

/** Validate each record with core and compute its reward and critical steps with core. */
export function scoreEpisodes(records: readonly SimEpisodeRecord[], reward: ResolvedRewardConfig): ScoredEpisode[] {
  return records.map((record) => {
    const episode = validateRecord(record);
    const steps = criticalStepsOfStages(episode.stages as readonly NormalizedStage[]);
    return { record, episode, reward: rewardOfEpisode(episode, reward), criticalSteps: steps.critical_steps, totalSteps: steps.total_steps };
  });
}

/** The rollout means of a set of scored episodes, without the step and λ fields. */
export interface EpisodeMeans {
  /** Mean r_PARL. */
  readonly total_reward: number;
  /** Mean r_parallel. */
  readonly r_parallel: number;
  /** Mean r_finish. */
  readonly r_finish: number;
  /** Mean r_perf. */
  readonly r_perf: number;
  /** Mean critical steps. */
  readonly critical_steps: number;
  /** Mean group width (core's `diagnose`). */
  readonly mean_width: number;
  /** 1 − core's idle_subagent_share. */
  readonly finish_rate: number;
  /** Share of episodes that ended `done`. */
  readonly success_rate: number;
  /** Mean spec §2 total steps (work: every step of the orchestrator and of every sub-agent). */
  readonly total_steps: number;
  /** Mean sub-agents launched per episode. */
  readonly subagents: number;
  /** Share of episodes that launched at least one sub-agent. */
  readonly assign_rate: number;
  /** Share of episodes cut by the budget or by the orchestrator's limits (steps, context). */
  readonly truncated_share: number;
  /** Share of episodes in which the orchestrator repeated itself at least once (delegate-only). */
  readonly repeat_share: number;
}

/** Means over scored episodes; widths and finish rate come from core's `diagnose`. */
export function episodeMeans(scored: readonly ScoredEpisode[]): EpisodeMeans {
  const n = scored.length;
  let total = 0;
  let par = 0;
  let fin = 0;
  let perf = 0;
  let cs = 0;
  let done = 0;
  let work = 0;
  let agents = 0;
  let assigned = 0;
  let truncated = 0;
  let repeated = 0;
  for (const s of scored) {
    if (s.record.num_subagents > 0) assigned++;
    if (TRUNCATED_END_REASONS.includes(s.record.end_reason)) truncated++;
    if ((s.record.repeats ?? 0) > 0) repeated++;
    work += s.totalSteps;
    agents += s.record.num_subagents;
    total += s.reward.total_reward;
    par += s.reward.r_parallel;
    fin += s.reward.r_finish;
    perf += s.reward.r_perf;
    cs += s.criticalSteps;
    if (s.record.end_reason === 'done') done++;
  }
  const d = diagnose(scored.map((s) => s.episode.stages as readonly NormalizedStage[]));
  const div = n === 0 ? 1 : n;
  return {
    total_reward: total / div,
    r_parallel: par / div,
    r_finish: fin / div,
    r_perf: perf / div,
    critical_steps: cs / div,
    mean_width: d.mean_width,
    finish_rate: 1 - d.idle_subagent_share,
    success_rate: done / div,
    total_steps: work / div,
    subagents: agents / div,
    assign_rate: assigned / div,
    truncated_share: truncated / div,
    repeat_share: repeated / div,
  };
}

/** The spec §6 metrics line of one training step. */
export function stepMetrics(step: number, lambda1: number, lambda2: number, scored: readonly ScoredEpisode[]): StepMetrics {
  const m = episodeMeans(scored);
  return { step, lambda1, lambda2, ...m };
}
