/**
 * The RL objective of the Kimi K2.5 report as a tfjs loss, differentiated by tfjs autodiff
 * (`tf.variableGrads`; `@parl/gpu` registers tfjs-core's gradient functions):
 *
 * L(θ) = −(1/n) Σ_i mask_i · e^{ℓ_i} · A_i + τ · (1/n) Σ_i ℓ_i²,
 * ℓ_i = log π_θ(a_i | s_i) − log π_behaviour(a_i | s_i),
 *
 * over the n decisions of a training step, where A_i is the advantage of the episode decision i
 * belongs to and mask_i = 0 — no gradient from the ratio term — where ℓ_i left [α, β]. With
 * `objective.modeEntropy` = c > 0 the loss also has −c · (1/n) Σ_i H(π_θ,mode(·|s_i)), an entropy
 * bonus on the choice between a direct call and a launch.
 *
 * @module
 */
import { tf } from '@parl/gpu';
import type { ActionTensors, MlpPolicy } from '../../policies/mlp-policy.js';
import type { ObjectiveConfig } from '../../training/training-config.js';

/** The decisions the objective is computed over (all tensors have n rows). */
export interface ObjectiveBatch {
  /** Feature rows `[n, FEATURE_COUNT]`. */
  readonly x: tf.Tensor2D;
  /** Chosen mode, and for a launch the chosen width and share, per row `[n, outputSize]` (see {@link MlpPolicy.logProb}). */
  readonly multiHot: tf.Tensor2D;
  /** The advantage of each decision's episode `[n]`. */
  readonly advantage: tf.Tensor1D;
  /** log π_behaviour(a_i | s_i) of the policy that acted `[n]` (a constant of the loss). */
  readonly behaviourLogProb: tf.Tensor1D;
  /** For rows ordered launches first: the actions as {@link MlpPolicy.actionTensors} built them once for every pass. */
  readonly actions?: ActionTensors;
}

/**
 * 1 where a decision's log-ratio lies in [α, β], 0 where it left the window (those decisions get
 * no gradient from the ratio term; the τ penalty still pulls them back).
 *
 * @example
 * ```ts
 * ratioWindowMask(Float32Array.of(-2, 0, 0.5, 3), { alpha: -1, beta: 1, tau: 0.01 }); // [0, 1, 1, 0]
 * ```
 */
export function ratioWindowMask(logRatio: ArrayLike<number>, objective: ObjectiveConfig): Float32Array {
  const mask = new Float32Array(logRatio.length);
  for (let i = 0; i < logRatio.length; i++) {
    const l = logRatio[i] as number;
    mask[i] = l >= objective.alpha && l <= objective.beta ? 1 : 0;
  }
  return mask;
}

/**
 * The K2.5 loss L(θ) (see the module comment) as a scalar tensor, built from the policy's
 * variables so that `tf.variableGrads` differentiates it. `mask` comes from
 * `ratioWindowMask` and is a constant of the loss. Call inside `tf.tidy` or a gradient
 * function.
 */
export function parlObjectiveLoss(policy: MlpPolicy, batch: ObjectiveBatch, mask: tf.Tensor1D, objective: ObjectiveConfig): tf.Scalar {
  const { logProb, modeEntropy } = policy.logProbAndModeEntropy(batch.x, batch.multiHot, batch.actions, (objective.modeEntropy ?? 0) > 0);
  return lossOfLogProb(logProb, modeEntropy, batch.behaviourLogProb, batch.advantage, mask, objective);
}

/**
 * The K2.5 loss from the decisions' log-probabilities under the current weights (and the mode
 * head's entropy, when `objective.modeEntropy` > 0): the part of {@link parlObjectiveLoss} after
 * the forward pass.
 */
export function lossOfLogProb(
  logProb: tf.Tensor1D,
  modeEntropy: tf.Tensor1D | null,
  behaviourLogProb: tf.Tensor1D,
  advantage: tf.Tensor1D,
  mask: tf.Tensor1D,
  objective: ObjectiveConfig,
): tf.Scalar {
  const logRatio = tf.sub(logProb, behaviourLogProb);
  const n = logRatio.shape[0] as number;
  const surrogate = tf.sum(tf.mul(tf.mul(mask, advantage), tf.exp(logRatio)));
  let penalty = tf.mul(tf.sum(tf.square(logRatio)), objective.tau);
  if (modeEntropy !== null) penalty = tf.sub(penalty, tf.mul(tf.sum(modeEntropy), objective.modeEntropy ?? 0));
  return tf.div(tf.sub(penalty, surrogate), Math.max(1, n)) as tf.Scalar;
}

/**
 * Gradients of {@link parlObjectiveLoss} with respect to every weight of the policy, by tfjs
 * autodiff (`tf.variableGrads`).
 *
 * @returns the loss value and one gradient per variable, keyed by the variable's name (dispose them)
 */
export function parlObjectiveGradients(
  policy: MlpPolicy,
  batch: ObjectiveBatch,
  mask: tf.Tensor1D,
  objective: ObjectiveConfig,
): { value: tf.Scalar; grads: tf.NamedTensorMap } {
  return tf.variableGrads(() => parlObjectiveLoss(policy, batch, mask, objective), policy.variables);
}
