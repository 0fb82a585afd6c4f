/**
 * `parl reward`: spec §5 records in, the same records out with the spec §3 reward fields added
 * (core `labelReward`).
 *
 * @module
 */
import type { CliIo } from '../io/cli-io.js';
import { labelStream, type RecordIoOptions, type RecordRunSummary } from '../io/label-stream.js';
import type { RewardLabelFlags } from '../io/labellers.js';

/** Options of {@link rewardCommand}, one per flag. */
export interface RewardCommandOptions extends RecordIoOptions, RewardLabelFlags {}

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
  const { maxSubagents, lambda1, lambda2, totalSteps, step, parallelShape, budget, onBudget } = options;
  const flags: RewardLabelFlags = {
    ...(maxSubagents === undefined ? {} : { maxSubagents }),
    ...(lambda1 === undefined ? {} : { lambda1 }),
    ...(lambda2 === undefined ? {} : { lambda2 }),
    ...(totalSteps === undefined ? {} : { totalSteps }),
    ...(step === undefined ? {} : { step }),
    ...(parallelShape === undefined ? {} : { parallelShape }),
    ...(budget === undefined ? {} : { budget }),
    ...(onBudget === undefined ? {} : { onBudget }),
  };
  return labelStream('reward', options, io, { command: 'reward', flags });
}
