/**
 * `parl reward`: spec §5 records in, the same records out with the spec §3 reward fields added
 * (core `labelReward`), by `@parl/io`'s labelling engine.
 *
 * @module
 */
import type { RewardOptions } from '@parl/core';
import { labelStream, type RecordIoOptions, type RecordRunSummary } from '@parl/io';
import type { CliIo } from '../../terminal/cli-io.js';

/** Options of {@link rewardCommand}: where records come from and go, and the reward options. */
export interface RewardCommandOptions extends RecordIoOptions {
  /** The reward options, resolved from the flags by core's `REWARD_OPTIONS` (default: core's defaults). */
  readonly reward?: RewardOptions;
}

/**
 * Label every record with `total_reward`, the three terms, λ1, λ2 and the three components
 * (plus the spec §2 fields when a record has `stages`). The engine's threads receive the resolved
 * options, never flags.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option or (under `--on-error fail`) a bad record
 *
 * @example
 * ```ts
 * await rewardCommand({ in: 'episodes.jsonl', out: 'labelled.jsonl', reward: { step: 5000 } }, processIo());
 * ```
 */
export async function rewardCommand(options: RewardCommandOptions, io: CliIo): Promise<RecordRunSummary> {
  return labelStream('reward', options, io, { command: 'reward', config: options.reward ?? {} });
}
