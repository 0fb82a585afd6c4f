/**
 * Critical steps, total steps, parallelism and max width (spec §2) of B ragged staged episodes,
 * over `[B, T, N]` tensors with a masked max per stage.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { constantComparison } from './gradients.js';
import { outputMode, toArrays, type KernelOptions } from './output.js';
import { stagedMasks, stagedTensors, type StagedBatchInput, type StagedTensors } from './staged-input.js';

/** Spec §2 quantities of B episodes as tensors of shape `[B]`. */
export type CriticalStepsTensors = {
  /** Σ_t (S_main + max_i (W_i + S_sub,i)), float32 `[B]`; max over an empty group is 0. */
  readonly critical_steps: tf.Tensor1D;
  /** Σ_t (S_main + Σ_i S_sub), float32 `[B]`. */
  readonly total_steps: tf.Tensor1D;
  /** total / critical, or 1 when critical is 0, float32 `[B]`. */
  readonly parallelism: tf.Tensor1D;
  /** Largest group size over the stages used, int32 `[B]`. */
  readonly max_width: tf.Tensor1D;
};

/** {@link CriticalStepsTensors} downloaded. */
export interface CriticalStepsArrays {
  /** Σ_t (S_main + max_i (W_i + S_sub,i)). */
  readonly critical_steps: Float32Array;
  /** Σ_t (S_main + Σ_i S_sub). */
  readonly total_steps: Float32Array;
  /** total / critical, or 1 when critical is 0. */
  readonly parallelism: Float32Array;
  /** Largest group size. */
  readonly max_width: Int32Array;
}

/**
 * Per-stage masked max and sum of the sub-agent steps and the main steps of the stages in use,
 * `[B, T]` each; unused slots and stages count as 0. Call inside `tf.tidy`.
 */
function stageMaxAndSum(input: StagedTensors): { max: tf.Tensor2D; sum: tf.Tensor2D; mainUsed: tf.Tensor2D; groups: tf.Tensor2D } {
  const [B, T, N] = input.subSteps.shape;
  const { stage, slot, groups } = stagedMasks(input);
  const mainUsed = tf.mul(input.mainSteps, stage) as tf.Tensor2D;
  if (N === 0) {
    const zeros = tf.zeros([B, T], 'float32') as tf.Tensor2D;
    return { max: zeros, sum: zeros, mainUsed, groups };
  }
  const sub = tf.mul(input.subSteps, slot);
  // A sub-agent that waited (spec §2 wait_steps) weighs W + steps in the max; W is not work.
  const reach = input.waitSteps === undefined ? sub : tf.mul(tf.add(input.subSteps, input.waitSteps), slot);
  // A nested entry (spec §5.2) adds its own total steps to the work.
  const work = input.workSteps === undefined ? sub : tf.mul(input.workSteps, slot);
  return { max: tf.max(reach, 2) as tf.Tensor2D, sum: tf.sum(work, 2) as tf.Tensor2D, mainUsed, groups };
}

/**
 * Critical steps and related quantities as differentiable tensor ops, with no validation and no
 * download: use inside `tf.grad`. Every entry must be finite (see {@link StagedTensors}). The
 * gradient of critical steps with respect to `subSteps` is 1 at each stage's largest step (at
 * every one of them when several tie) and 0 elsewhere; with respect to `mainSteps` it is 1 on
 * the stages used. Group sizes and stage counts are integers: no gradient flows to them.
 *
 * @example
 * ```ts
 * import { stagedTensors, tf } from '@parl/gpu';
 * const staged = stagedTensors({ batch: 1, stages: 2, width: 3, subSteps: [3, 5, 2, 0, 0, 0], groupSizes: [3, 0] });
 * const grad = tf.grad((sub: tf.Tensor) =>
 *   tf.sum(criticalStepsOp({ ...staged, subSteps: sub as tf.Tensor3D }).critical_steps),
 * )(staged.subSteps);
 * ```
 */
export function criticalStepsOp(input: StagedTensors): CriticalStepsTensors {
  return tf.tidy(() => {
    const [B, T] = input.groupSizes.shape;
    if (T === 0) {
      // No stages: reductions over an empty axis are not defined on every backend.
      const zeros = tf.zeros([B], 'float32') as tf.Tensor1D;
      return { critical_steps: zeros, total_steps: tf.zeros([B], 'float32') as tf.Tensor1D, parallelism: tf.ones([B], 'float32') as tf.Tensor1D, max_width: tf.zeros([B], 'int32') as tf.Tensor1D };
    }
    const { max, sum, mainUsed, groups } = stageMaxAndSum(input);
    const critical = tf.sum(tf.add(mainUsed, max), 1) as tf.Tensor1D;
    const total = tf.sum(tf.add(mainUsed, sum), 1) as tf.Tensor1D;
    const zero = constantComparison(critical, (c) => tf.equal(c, 0));
    const parallelism = tf.where(zero, tf.onesLike(total), tf.div(total, tf.where(zero, tf.onesLike(critical), critical))) as tf.Tensor1D;
    const maxWidth = tf.cast(tf.max(groups, 1), 'int32') as tf.Tensor1D;
    return { critical_steps: critical, total_steps: total, parallelism, max_width: maxWidth };
  });
}

/**
 * Critical steps, total steps, parallelism and max width of B ragged staged episodes, as
 * tensors (default) or typed arrays (`{ output: 'array' }`). Equals `@parl/core`'s
 * `criticalStepsBatch` on the same input to float32 precision (relative error ≤ 1e-5, tested
 * on every backend). Nothing leaks (see {@link rewardKernel}).
 *
 * Shapes: `subSteps [B, T, N]`, `groupSizes [B, T]`, `mainSteps [B, T]`, `numStages [B]`,
 * `waitSteps [B, T, N]` (spec §2 `wait_steps`, or core's `subWait`) → each output `[B]`.
 *
 * @throws `ParlInputError` (`@parl/core`) for a wrong shape or a bad element, named by its index
 *
 * @example
 * ```ts
 * // One episode, stage 0 has sub-agents [3, 5, 2], stage 1 none.
 * criticalStepsKernel(
 *   { batch: 1, stages: 2, width: 3, subSteps: [3, 5, 2, 0, 0, 0], groupSizes: [3, 0] },
 *   { output: 'array' },
 * ).critical_steps; // Float32Array [7]
 * ```
 */
export function criticalStepsKernel(input: StagedBatchInput, options?: { readonly output?: 'tensor' }): CriticalStepsTensors;
export function criticalStepsKernel(input: StagedBatchInput, options: { readonly output: 'array' }): CriticalStepsArrays;
export function criticalStepsKernel(input: StagedBatchInput, options?: KernelOptions): CriticalStepsTensors | CriticalStepsArrays;
export function criticalStepsKernel(input: StagedBatchInput, options?: KernelOptions): CriticalStepsTensors | CriticalStepsArrays {
  const mode = outputMode(options);
  const result = tf.tidy(() => criticalStepsOp(stagedTensors(input)));
  return mode === 'array' ? (toArrays(result) as unknown as CriticalStepsArrays) : result;
}
