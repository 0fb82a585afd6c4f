/**
 * Turning a finished episode of the batched engine into its spec §5 record.
 *
 * @module
 */
import type { EpisodeRecord, StageRecord } from '@parl/core';
import { END_REASONS, type EndReason, type SwarmBatch } from './swarm-batch.js';

/**
 * A spec §5 record as the simulator writes it: the core fields plus a few descriptive extras
 * (`family`, `subtasks`, `solved_correctly`, `end_reason`) that core passes through untouched.
 */
export interface SimEpisodeRecord extends EpisodeRecord {
  /** `task-<t>/rollout-<r>` or `episode-<i>`. */
  readonly id: string;
  /** Sub-agents launched over all stages. */
  readonly num_subagents: number;
  /** Sub-agents given an assignment: every launched sub-agent (idle ones too). */
  readonly assigned_subtasks: number;
  /** Sub-agents that finished their assignment (idle and failed ones did not). */
  readonly completed_subtasks: number;
  /**
   * Share of the task's subtasks solved correctly; after a budget cut, of those solved before the
   * stage that crossed it. Scoring the record with the budget (core's `rewardOfEpisode`, `onBudget:
   * "fail"`) makes a cut episode's r_perf 0; the simulator leaves that rule to core.
   */
  readonly r_perf: number;
  /** Every stage run, the one that crossed a budget included, so that core sees the cut. */
  readonly stages: readonly StageRecord[];
  /** `wide` or `deep` (a mixed task is one of the two). */
  readonly family: 'wide' | 'deep';
  /** Subtasks in the task. */
  readonly subtasks: number;
  /** Subtasks solved correctly. */
  readonly solved_correctly: number;
  /** Why the episode ended: `done` (every subtask returned), `budget`, `max_steps`, `context` or `answered` (delegate-only). */
  readonly end_reason: Exclude<EndReason, 'running'>;
  /** Delegate-only environments: replies that repeated an earlier turn (absent with the direct action). */
  readonly repeats?: number;
}

/**
 * The record of the finished episode in slot `b` (the engine must log stages).
 *
 * @param env - the engine, created with `recordStages: true`
 * @param b - the slot
 * @param id - the record's `id`
 * @param trainingStep - written as `training_step` when given
 */
export function episodeRecord(env: SwarmBatch, b: number, id: string, trainingStep?: number): SimEpisodeRecord {
  if (env.logs === null) throw new Error('episodeRecord needs a SwarmBatch created with recordStages: true');
  const base = {
    id,
    ...(trainingStep === undefined ? {} : { training_step: trainingStep }),
    num_subagents: env.subagents[b] as number,
    assigned_subtasks: env.subagents[b] as number,
    completed_subtasks: env.finishedSubagents[b] as number,
    r_perf: env.rPerf[b] as number,
    stages: env.logs[b] as StageRecord[],
    family: env.deep[b] === 1 ? ('deep' as const) : ('wide' as const),
    subtasks: env.subtasks[b] as number,
    solved_correctly: env.correctCount[b] as number,
    end_reason: (END_REASONS[env.endReason[b] as number] ?? 'done') as Exclude<EndReason, 'running'>,
    ...(env.env.directAction ? {} : { repeats: env.repeats[b] as number }),
  };
  return base;
}
