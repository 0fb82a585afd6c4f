/**
 * GRPO group-relative advantages (spec §10): each rollout's total reward against the other
 * samples of the same task.
 *
 * @module
 */
import { ParlInputError, requireFinite } from './errors.js';

/** The constant added to the group's standard deviation so that a group of equal rewards divides by a positive number. */
export const GRPO_EPSILON = 1e-6;

/** Options of {@link grpoAdvantages}. */
export interface GrpoOptions {
  /**
   * What the difference from the group's mean is divided by: `std` (default, spec §10) the
   * population standard deviation of the group + {@link GRPO_EPSILON}; `none` nothing — the plain
   * group baseline of the Kimi K2.5 objective, which the simulator's trainer uses.
   */
  readonly scale?: 'std' | 'none';
}

/**
 * The GRPO advantage of each reward of one group (the samples of one task):
 * `(reward − mean of the group) / (population standard deviation of the group + 1e-6)`, or with
 * `scale: 'none'` `reward − mean of the group`.
 *
 * A group of equal rewards gives advantages of 0; a group of one gives `[0]`.
 *
 * @param rewards - the `total_reward` of each sample of the group, in sample order
 * @param options - `scale` (default `std`)
 * @returns the advantages, in the same order
 * @throws {@link ParlInputError} when the group is empty or a reward is not a finite number
 *
 * @example
 * ```ts
 * grpoAdvantages([1, 0]); // [0.999998…, -0.999998…]
 * grpoAdvantages([1, 0], { scale: 'none' }); // [0.5, -0.5]
 * ```
 */
export function grpoAdvantages(rewards: readonly number[], options: GrpoOptions = {}): number[] {
  if (rewards.length === 0) throw new ParlInputError('rewards', rewards, 'a group of at least one reward');
  let sum = 0;
  rewards.forEach((r, i) => {
    requireFinite(r, `rewards[${i}]`);
    sum += r;
  });
  const mean = sum / rewards.length;
  if (options.scale === 'none') return rewards.map((r) => r - mean);
  let squares = 0;
  for (const r of rewards) squares += (r - mean) ** 2;
  const std = Math.sqrt(squares / rewards.length);
  return rewards.map((r) => (r - mean) / (std + GRPO_EPSILON));
}
