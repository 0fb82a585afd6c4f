/**
 * Where the bumps of the policy network's width head sit (see `internal/policies/count-head.ts`):
 * part of every saved policy's spec.
 *
 * @module
 */

/** Where the bumps of the width head sit and how wide they are. */
export interface CountBasis {
  /** Multiples of the ready subtasks at which a relative bump sits (e.g. 0.25, 0.5, 1, 2, 4). */
  readonly relativeCounts: readonly number[];
  /** Absolute counts at which a bump sits (e.g. 1, 2, 4, 8, 16, 32, 64, 100). */
  readonly absoluteCounts: readonly number[];
  /** Standard deviation of every bump in ln-count units. */
  readonly countSpread: number;
  /** Largest group size the head can choose. */
  readonly maxCount: number;
}
