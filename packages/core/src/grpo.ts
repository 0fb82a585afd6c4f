/**
 * GRPO group-relative advantages (spec §10): each rollout's total reward against the other
 * samples of the same task.
 *
 * @module
 */
import { ParlInputError, requireFinite } from './errors.js';

/** The constant added to the group's standard deviation so that a group of equal rewards divides by a positive number. */
export const GRPO_EPSILON = 1e-6;

/**
 * The GRPO advantage of each reward of one group (the samples of one task):
 * `(reward − mean of the group) / (population standard deviation of the group + 1e-6)`.
 *
 * A group of equal rewards gives advantages of 0; a group of one gives `[0]`.
 *
 * @param rewards - the `total_reward` of each sample of the group, in sample order
 * @returns the advantages, in the same order
 * @throws {@link ParlInputError} when the group is empty or a reward is not a finite number
 *
 * @example
 * ```ts
 * grpoAdvantages([1, 0]); // [0.999998…, -0.999998…]
 * ```
 */
export function grpoAdvantages(rewards: readonly number[]): number[] {
  if (rewards.length === 0) throw new ParlInputError('rewards', rewards, 'a group of at least one reward');
  let sum = 0;
  rewards.forEach((r, i) => {
    requireFinite(r, `rewards[${i}]`);
    sum += r;
  });
  const mean = sum / rewards.length;
  let squares = 0;
  for (const r of rewards) squares += (r - mean) ** 2;
  const std = Math.sqrt(squares / rewards.length);
  return rewards.map((r) => (r - mean) / (std + GRPO_EPSILON));
}
