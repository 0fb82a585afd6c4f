/**
 * `parl reward`: spec §5 records in, the same records out with the spec §3 reward fields added
 * (core `labelReward`).
 *
 * @module
 */
import { labelReward, parseSchedule, resolveRewardConfig, type BudgetMode, type ParallelShape, type RewardConfig } from '@parl/core';
import type { CliIo } from '../io/cli-io.js';
import { labelStream, type RecordIoOptions, type RecordRunSummary } from '../io/label-stream.js';

/** Options of {@link rewardCommand}, one per flag. */
export interface RewardCommandOptions extends RecordIoOptions {
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

/** The core reward config the flags describe; schedules are parsed here so a bad one names its flag. */
export function rewardConfigOf(options: RewardCommandOptions): RewardConfig {
  return {
    ...(options.maxSubagents === undefined ? {} : { maxSubagents: options.maxSubagents }),
    ...(options.lambda1 === undefined ? {} : { lambda1: parseSchedule(options.lambda1, '--lambda1') }),
    ...(options.lambda2 === undefined ? {} : { lambda2: parseSchedule(options.lambda2, '--lambda2') }),
    ...(options.totalSteps === undefined ? {} : { totalTrainingSteps: options.totalSteps }),
    ...(options.step === undefined ? {} : { step: options.step }),
    ...(options.parallelShape === undefined ? {} : { parallelShape: options.parallelShape }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.onBudget === undefined ? {} : { onBudget: options.onBudget }),
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
  const config = resolveRewardConfig(rewardConfigOf(options));
  return labelStream('reward', options, io, (value, location) => labelReward(value, config, location));
}
