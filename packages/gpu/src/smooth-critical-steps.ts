/**
 * A smooth critical-steps surrogate: each stage's max over its group replaced by the
 * log-sum-exp soft maximum with temperature τ, and its gap to the exact value bounded.
 *
 * For a group of k ≥ 1 steps x, max x ≤ τ·ln Σ_i exp(x_i/τ) ≤ max x + τ·ln k, so
 *
 *     0 ≤ smooth − exact ≤ τ · Σ_t ln(max(k_t, 1)) ≤ T · τ · ln(max(N, 1)),
 *
 * and the surrogate tends to the exact critical steps as τ → 0. Its gradient with respect to a
 * stage's sub-agent steps is the softmax of those steps over τ: every sub-agent gets credit,
 * the slowest the most.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { ParlInputError } from '@parl/core';
import { repeatLast } from './broadcast.js';
import { outputMode, toArrays, type KernelOptions } from './output.js';
import { stagedMasks, stagedTensors, type StagedBatchInput, type StagedTensors } from './staged-input.js';

/** The surrogate and its bound, tensors of shape `[B]`. */
export type SmoothCriticalStepsTensors = {
  /** Σ_t (S_main + τ·LSE_i((W_i + S_sub,i)/τ)), float32 `[B]`; an empty group contributes 0. */
  readonly smooth_critical_steps: tf.Tensor1D;
  /** The per-episode bound τ·Σ_t ln(max(k_t, 1)) on smooth − exact, float32 `[B]`. */
  readonly gap_bound: tf.Tensor1D;
};

/** {@link SmoothCriticalStepsTensors} downloaded. */
export interface SmoothCriticalStepsArrays {
  /** The surrogate. */
  readonly smooth_critical_steps: Float32Array;
  /** Its bound on smooth − exact. */
  readonly gap_bound: Float32Array;
}

/**
 * The uniform bound on smooth − exact for any episode of at most T stages and N sub-agents per
 * stage: T·τ·ln(max(N, 1)).
 *
 * @example
 * ```ts
 * smoothGapBound(10, 8, 0.01); // 0.2079441541679836 (10 · 0.01 · ln 8)
 * ```
 */
export function smoothGapBound(stages: number, width: number, tau: number): number {
  return stages * tau * Math.log(Math.max(width, 1));
}

function requireTau(tau: unknown): number {
  if (typeof tau !== 'number' || !Number.isFinite(tau) || tau <= 0) {
    throw new ParlInputError('tau', tau, 'a finite temperature > 0');
  }
  return tau;
}

/**
 * The surrogate as differentiable tensor ops (no validation, no download), for `tf.grad`.
 * Computed stably as m + τ·ln Σ_i exp((x_i − m)/τ) with m the exact stage max, so that the
 * result is never below the exact value even in float32.
 *
 * @param tau - temperature, finite and > 0
 */
export function smoothCriticalStepsOp(input: StagedTensors, tau: number): SmoothCriticalStepsTensors {
  const t = requireTau(tau);
  return tf.tidy(() => {
    const [B, T, N] = input.subSteps.shape;
    if (T === 0) {
      // No stages: reductions over an empty axis are not defined on every backend.
      return { smooth_critical_steps: tf.zeros([B], 'float32') as tf.Tensor1D, gap_bound: tf.zeros([B], 'float32') as tf.Tensor1D };
    }
    const { stage, slot, groups } = stagedMasks(input);
    const mainUsed = tf.mul(input.mainSteps, stage);
    const gap = tf.mul(tf.sum(tf.log(tf.maximum(groups, 1)), 1), t) as tf.Tensor1D;
    if (N === 0) {
      return { smooth_critical_steps: tf.sum(mainUsed, 1) as tf.Tensor1D, gap_bound: gap };
    }
    // A sub-agent that waited (spec §2 wait_steps) enters the soft max as W + its steps.
    const sub = tf.mul(input.waitSteps === undefined ? input.subSteps : tf.add(input.subSteps, input.waitSteps), slot);
    const m = tf.max(sub, 2);
    // exp((x − m)/τ) ∈ (0, 1], 1 at the max; masked slots get weight 0.
    const weights = tf.mul(tf.exp(tf.div(tf.sub(sub, repeatLast(m, N)), t)), slot);
    // Σ weights ≥ 1 on a stage with a group; an empty group's 0 becomes 1, so its log is 0.
    const total = tf.add(tf.sum(weights, 2), tf.sub(1, tf.minimum(groups, 1)));
    const soft = tf.add(m, tf.mul(tf.log(total), t));
    return { smooth_critical_steps: tf.sum(tf.add(mainUsed, soft), 1) as tf.Tensor1D, gap_bound: gap };
  });
}

/**
 * The smooth critical-steps surrogate of B ragged staged episodes with temperature τ, and the
 * per-episode bound on its gap to the exact value (0 ≤ smooth − exact ≤ gap_bound ≤
 * T·τ·ln N). Same input as {@link criticalStepsKernel}.
 *
 * @param tau - temperature, finite and > 0; smaller is closer to the exact value
 * @throws `ParlInputError` (`@parl/core`) for a bad τ, a wrong shape or a bad element
 *
 * @example
 * ```ts
 * smoothCriticalStepsKernel(
 *   { batch: 1, stages: 1, width: 2, subSteps: [3, 3] }, 0.5, { output: 'array' },
 * ); // smooth_critical_steps ≈ [1 + 3 + 0.5·ln 2], gap_bound ≈ [0.5·ln 2]
 * ```
 */
export function smoothCriticalStepsKernel(input: StagedBatchInput, tau: number, options?: { readonly output?: 'tensor' }): SmoothCriticalStepsTensors;
export function smoothCriticalStepsKernel(input: StagedBatchInput, tau: number, options: { readonly output: 'array' }): SmoothCriticalStepsArrays;
export function smoothCriticalStepsKernel(input: StagedBatchInput, tau: number, options?: KernelOptions): SmoothCriticalStepsTensors | SmoothCriticalStepsArrays;
export function smoothCriticalStepsKernel(
  input: StagedBatchInput,
  tau: number,
  options?: KernelOptions,
): SmoothCriticalStepsTensors | SmoothCriticalStepsArrays {
  const mode = outputMode(options);
  requireTau(tau);
  const result = tf.tidy(() => smoothCriticalStepsOp(stagedTensors(input), tau));
  return mode === 'array' ? (toArrays(result) as unknown as SmoothCriticalStepsArrays) : result;
}
