/**
 * Critical steps of a staged episode (spec §2) and the quantities around it: total steps (work),
 * parallelism, stage count and group widths.
 *
 * @module
 */
import { validateStages, type NormalizedStage, type StageRecord } from './records.js';
import { stageTotals } from './stage-sums.js';

/** Spec §2 quantities of one staged episode, under the spec's JSON field names. */
export interface CriticalStepsResult {
  /** Σ_t (S_main^(t) + max_i (W_i + S_sub,i^(t))), W_i a sub-agent's `wait_steps` (0 when absent); max over an empty group is 0. */
  readonly critical_steps: number;
  /** W = Σ_t (S_main^(t) + Σ_i S_sub,i^(t)): work, which excludes waiting. */
  readonly total_steps: number;
  /** W / critical_steps, or 1 when critical_steps is 0. */
  readonly parallelism: number;
  /** T, the number of stages. */
  readonly num_stages: number;
  /** The largest group size (0 when no stage launched sub-agents). */
  readonly max_width: number;
  /** Mean group size over the stages that launch a group (0 when none does). */
  readonly mean_width: number;
}

/**
 * Critical steps and related quantities of a staged, ragged episode (spec §2).
 *
 * @param stages - the spec §5 `stages` array; validated (a bad step names its path)
 * A nested sub-agent entry (spec §5.2, `{"stages": [...]}`) contributes its own critical steps to
 * its stage's max and its own total steps to the work; `max_width` and `mean_width` count the
 * top-level groups only. A sub-agent with `wait_steps` W (spec §2: it waited for a free slot)
 * weighs W + its steps in its stage's max; W is not work.
 *
 * @throws {@link ParlInputError} for a negative, non-finite or mistyped step or `wait_steps`, an entry with both
 *   `steps` and `stages`, or nesting deeper than 16 levels
 *
 * @example
 * ```ts
 * criticalSteps([
 *   { main_steps: 1, sub_steps: [3, 5, 2] },
 *   { main_steps: 1, sub_steps: [] },
 * ]);
 * // { critical_steps: 7, total_steps: 12, parallelism: 12 / 7, num_stages: 2, max_width: 3, mean_width: 3 }
 * ```
 */
export function criticalSteps(stages: readonly StageRecord[]): CriticalStepsResult {
  return criticalStepsOfStages(validateStages(stages));
}

/**
 * {@link criticalSteps} for stages already validated by {@link validateStages} or
 * {@link validateRecord}.
 */
export function criticalStepsOfStages(stages: readonly NormalizedStage[]): CriticalStepsResult {
  // The one critical-steps sum (stage-sums.ts): nested entries (spec §5.2) contribute their own
  // critical steps to the max and their total steps to the work; waiting (spec §2 wait_steps)
  // counts in the max and not in the work.
  const { critical, total } = stageTotals(stages);
  let maxWidth = 0;
  let groups = 0;
  let widthSum = 0;
  for (const stage of stages) {
    const width = stage.sub.length;
    if (width > 0) {
      groups++;
      widthSum += width;
      if (width > maxWidth) maxWidth = width;
    }
  }
  return {
    critical_steps: critical,
    total_steps: total,
    parallelism: parallelismOf(total, critical),
    num_stages: stages.length,
    max_width: maxWidth,
    mean_width: groups === 0 ? 0 : widthSum / groups,
  };
}

/** W / critical steps, 1 when critical steps is 0 (spec §2). */
export function parallelismOf(totalSteps: number, criticalStepCount: number): number {
  return criticalStepCount === 0 ? 1 : totalSteps / criticalStepCount;
}
