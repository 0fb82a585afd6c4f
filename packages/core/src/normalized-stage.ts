/**
 * The validated form of a spec §5 stage, shared by validation (records.ts) and the sums over it
 * (stage-sums.ts).
 *
 * @module
 */

/** A validated stage: plain numbers, no optional parts. */
export interface NormalizedStage {
  /** S_main. */
  readonly main: number;
  /** S_sub,i per sub-agent. */
  readonly sub: readonly number[];
  /** finished flag per sub-agent; undefined where the record gave none. */
  readonly finished: readonly (boolean | undefined)[];
  /**
   * Total steps (work) per sub-agent, present only when the stage holds a nested entry (spec
   * §5.2): there `sub` holds each entry's own critical steps and `work` its total steps. Absent,
   * the work of each sub-agent is its `sub` value.
   */
  readonly work?: readonly number[];
  /** The validated stages of each nested entry (undefined for a plain one); present with `work` only. */
  readonly nested?: readonly (readonly NormalizedStage[] | undefined)[];
  /**
   * W per sub-agent (spec §2 `wait_steps`; 0 where an entry gives none), present only when an
   * entry of the stage gives `wait_steps`. Its term in the stage's max is `wait[i] + sub[i]`.
   */
  readonly wait?: readonly number[];
}
