/**
 * The orchestrator's per-stage action, in the structure-of-arrays form the batched engine reads.
 *
 * @module
 */

/** A direct tool call: the orchestrator does one ready subtask itself. */
export const MODE_DIRECT = 0;
/** A launch: a group of sub-agents splits some ready subtasks. */
export const MODE_LAUNCH = 1;

/**
 * One action per active episode, indexed by position in the active list handed to the policy.
 * For a launch, `width` is the group size k (clamped to 1..maxSubagentsPerGroup) and `handout`
 * the number m of ready subtasks handed out (clamped to 1..ready); both are ignored for a
 * direct call. k > m leaves k − m sub-agents idle.
 */
export interface ActionBatch {
  /** {@link MODE_DIRECT} or {@link MODE_LAUNCH} per episode. */
  readonly mode: Uint8Array;
  /** Group size k per episode. */
  readonly width: Int32Array;
  /** Ready subtasks handed out, m, per episode. */
  readonly handout: Int32Array;
}
