/**
 * GRPO group-relative advantages (spec §10): each rollout's total reward against the other
 * samples of the same task. The one advantage every trainer of PARL-TS uses: the swarm's rollout
 * lines (spec §10: divided by the group's standard deviation) and the simulator's training (with
 * `scale: 'none'`, the group baseline alone).
 *
 * @module
 */
import { ParlInputError, requireFinite, requireOneOf } from './errors.js';

/** The constant added to the group's standard deviation so that a group of equal rewards divides by a positive number. */
export const GRPO_EPSILON = 1e-6;

/**
 * How an advantage is scaled after the group mean is subtracted: `std` (spec §10, the default)
 * divides by the group's population standard deviation + {@link GRPO_EPSILON}; `none` keeps
 * reward − group mean (the baseline without normalisation, as in Dr. GRPO).
 */
export type AdvantageScale = 'std' | 'none';

/** The values {@link AdvantageScale} takes. */
export const ADVANTAGE_SCALES: readonly AdvantageScale[] = ['std', 'none'];

/** Options of {@link grpoAdvantages} and {@link groupedAdvantages}. */
export interface AdvantageOptions {
  /** See {@link AdvantageScale} (default `std`). */
  readonly scale?: AdvantageScale;
}

/**
 * The GRPO advantage of each reward of one group (the samples of one task):
 * `(reward − mean of the group) / (population standard deviation of the group + 1e-6)`, or
 * `reward − mean` with `scale: 'none'`.
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
 * grpoAdvantages([1, 0], { scale: 'none' }); // [0.5, -0.5]
 * ```
 */
export function grpoAdvantages(rewards: readonly number[], options: AdvantageOptions = {}): number[] {
  if (rewards.length === 0) throw new ParlInputError('rewards', rewards, 'a group of at least one reward');
  rewards.forEach((r, i) => requireFinite(r, `rewards[${i}]`));
  return Array.from(groupedAdvantages(rewards, rewards.length, options));
}

/**
 * {@link grpoAdvantages} of every group of a flat array: rewards come in groups of `groupSize`
 * samples of one task (slots j·K … j·K + K − 1), each group on its own.
 *
 * @param rewards - the rewards, grouped by task
 * @param groupSize - K, samples per task (a positive integer dividing the number of rewards)
 * @param options - see {@link AdvantageOptions}
 * @param out - where to write (allocated when omitted; may be `rewards` itself when that is a Float64Array)
 * @throws {@link ParlInputError} for a group size that does not divide the rewards, or a bad scale
 *
 * @example
 * ```ts
 * Array.from(groupedAdvantages([1, 0, 0.5, 0.5], 2, { scale: 'none' })); // [0.5, -0.5, 0, 0]
 * ```
 */
export function groupedAdvantages(
  rewards: ArrayLike<number>,
  groupSize: number,
  options: AdvantageOptions = {},
  out: Float64Array = new Float64Array(rewards.length),
): Float64Array {
  const K = groupSize;
  if (!Number.isInteger(K) || K < 1 || rewards.length % K !== 0) {
    throw new ParlInputError('groupSize', K, `a positive integer dividing the ${rewards.length} rewards`);
  }
  if (out.length < rewards.length) throw new ParlInputError('out.length', out.length, `at least ${rewards.length}`);
  const scale = options.scale === undefined ? 'std' : requireOneOf(options.scale, 'scale', ADVANTAGE_SCALES);
  for (let j = 0; j < rewards.length; j += K) {
    let sum = 0;
    for (let r = 0; r < K; r++) sum += rewards[j + r] as number;
    const mean = sum / K;
    if (scale === 'none') {
      for (let r = 0; r < K; r++) out[j + r] = (rewards[j + r] as number) - mean;
      continue;
    }
    let squares = 0;
    for (let r = 0; r < K; r++) squares += ((rewards[j + r] as number) - mean) ** 2;
    const std = Math.sqrt(squares / K);
    for (let r = 0; r < K; r++) out[j + r] = ((rewards[j + r] as number) - mean) / (std + GRPO_EPSILON);
  }
  return out;
}
