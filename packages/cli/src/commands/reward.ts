/**
 * `parl reward`: spec §5 records in, the same records out with the spec §3 reward fields added
 * (core `labelReward`), by `@parl/io`'s labelling engine.
 *
 * @module
 */
import { parseSchedule, type BudgetMode, type ParallelShape, type RewardConfig } from '@parl/core';
import { labelStream, type RecordIoOptions, type RecordRunSummary } from '@parl/io';
import type { CliIo } from '../io/cli-io.js';

/** The flags of `parl reward` that change the computed fields. */
export interface RewardLabelFlags {
  /** `--max-subagents`: saturation point of r_parallel (default 100). */
  readonly maxSubagents?: number;
  /** `--lambda1`: λ1 schedule, short or JSON form (default linear 0.1 → 0 over `--total-steps`). */
  readonly lambda1?: string;
  /** `--lambda2`: λ2 schedule, short or JSON form. */
  readonly lambda2?: string;
  /** `--total-steps`: length of the default λ schedules (default 10000). */
  readonly totalSteps?: number;
  /** `--step`: training step for every record, overriding `training_step`. */
  readonly step?: number;
  /** `--parallel-shape`: `linear` (default) or `log`. */
  readonly parallelShape?: ParallelShape;
  /** `--budget`: critical-step budget K. */
  readonly budget?: number;
  /** `--on-budget`: `fail` (r_perf = 0 when over budget, default) or `truncate`. */
  readonly onBudget?: BudgetMode;
}

/** Options of {@link rewardCommand}, one per flag. */
export interface RewardCommandOptions extends RecordIoOptions, RewardLabelFlags {}

/** The core reward config the flags describe; schedules are parsed here so a bad one names its flag. */
function rewardConfigOf(flags: RewardLabelFlags): RewardConfig {
  return {
    ...(flags.maxSubagents === undefined ? {} : { maxSubagents: flags.maxSubagents }),
    ...(flags.lambda1 === undefined ? {} : { lambda1: parseSchedule(flags.lambda1, '--lambda1') }),
    ...(flags.lambda2 === undefined ? {} : { lambda2: parseSchedule(flags.lambda2, '--lambda2') }),
    ...(flags.totalSteps === undefined ? {} : { totalTrainingSteps: flags.totalSteps }),
    ...(flags.step === undefined ? {} : { step: flags.step }),
    ...(flags.parallelShape === undefined ? {} : { parallelShape: flags.parallelShape }),
    ...(flags.budget === undefined ? {} : { budget: flags.budget }),
    ...(flags.onBudget === undefined ? {} : { onBudget: flags.onBudget }),
  };
}

/**
 * Label every record with `total_reward`, the three terms, λ1, λ2 and the three components
 * (plus the spec §2 fields when a record has `stages`).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option or (under `--on-error fail`) a bad record
 *
 * @example
 * ```ts
 * await rewardCommand({ in: 'episodes.jsonl', out: 'labelled.jsonl', step: 5000 }, processIo());
 * ```
 */
export async function rewardCommand(options: RewardCommandOptions, io: CliIo): Promise<RecordRunSummary> {
  return labelStream('reward', options, io, { command: 'reward', config: rewardConfigOf(options) });
}
