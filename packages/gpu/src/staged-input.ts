/**
 * The dense staged-episode input shared by the critical-steps kernels: sub-agent steps
 * `[B, T, N]` with group sizes `[B, T]`, main steps `[B, T]` and stages used `[B]` — the same
 * fields as `@parl/core`'s `CriticalStepsBatchInput` — converted to tensors and validated.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { prefixMask } from './broadcast.js';
import { enforceChecks, finiteNonNegative, integerBetween, type InputCheck } from './input-checks.js';
import { filled, requireDimension, toFloat32Tensor, type NumericInput } from './tensor-input.js';

/**
 * B ragged staged episodes stored densely; the fields of `@parl/core`'s
 * `CriticalStepsBatchInput`, each also accepted as a tensor, so one object serves both.
 */
export interface StagedBatchInput {
  /** B, the number of episodes. */
  readonly batch: number;
  /** T, the stage capacity per episode. */
  readonly stages: number;
  /** N, the sub-agent capacity per stage. */
  readonly width: number;
  /** S_sub, `[B, T, N]` row-major; entries past a stage's group size (or past numStages) are ignored. */
  readonly subSteps: NumericInput;
  /** Group size per stage, `[B, T]`, integers in 0..N; defaults to N everywhere. */
  readonly groupSizes?: NumericInput;
  /** S_main per stage, `[B, T]`, finite ≥ 0; defaults to 1 everywhere. */
  readonly mainSteps?: NumericInput;
  /** Stages used per episode, `[B]`, integers in 0..T; defaults to T. */
  readonly numStages?: NumericInput;
  /**
   * W per sub-agent (spec §2 `wait_steps`: steps of its group that elapsed before it started),
   * `[B, T, N]`, finite ≥ 0 where used; a sub-agent's term in its stage's max is W + its steps,
   * and W is not work. Absent, every wait is 0. `@parl/core`'s `CriticalStepsBatchInput.subWait`.
   */
  readonly waitSteps?: NumericInput;
  /**
   * Work per sub-agent, `[B, T, N]`, for episodes with nested entries (spec §5.2): there
   * `subSteps` holds each entry's own critical steps and this its total steps. Absent, each
   * sub-agent's work is its `subSteps`. `@parl/core`'s `CriticalStepsBatchInput.subWork` is read too.
   */
  readonly workSteps?: NumericInput;
}

/**
 * The staged input as float32 tensors of fixed shapes, for the differentiable ops. The ops
 * multiply by 0/1 masks, so every entry must be finite (padding included); the kernels replace
 * non-finite padding with 0 before calling them.
 */
export type StagedTensors = {
  /** S_sub, `[B, T, N]`. */
  readonly subSteps: tf.Tensor3D;
  /** Group sizes, `[B, T]` (integers in 0..N, as float32). */
  readonly groupSizes: tf.Tensor2D;
  /** S_main, `[B, T]`. */
  readonly mainSteps: tf.Tensor2D;
  /** Stages used, `[B]` (integers in 0..T, as float32). */
  readonly numStages: tf.Tensor1D;
  /** W per sub-agent, `[B, T, N]` (spec §2 `wait_steps`); absent when every wait is 0. */
  readonly waitSteps?: tf.Tensor3D;
  /** Work per sub-agent, `[B, T, N]` (nested entries' total steps); absent when it is `subSteps`. */
  readonly workSteps?: tf.Tensor3D;
};

/** The float32 0/1 masks of a staged batch, and the group sizes of the stages in use. */
export interface StagedMasks {
  /** `[B, T]`: 1 where stage t < numStages[b]. */
  readonly stage: tf.Tensor2D;
  /** `[B, T]`: groupSizes on the stages in use, 0 elsewhere. */
  readonly groups: tf.Tensor2D;
  /** `[B, T, N]`: 1 where the stage is in use and slot i < groupSizes[b, t]. */
  readonly slot: tf.Tensor3D;
}

/** The stage and slot masks of {@link StagedTensors}. Call inside `tf.tidy`. */
export function stagedMasks(input: StagedTensors): StagedMasks {
  const [, T, N] = input.subSteps.shape;
  const stage = prefixMask(input.numStages, T) as tf.Tensor2D;
  const groups = tf.mul(input.groupSizes, stage) as tf.Tensor2D;
  const slot = prefixMask(groups, N) as tf.Tensor3D;
  return { stage, groups, slot };
}

/**
 * Convert and validate a {@link StagedBatchInput}: shapes, group sizes and stage counts in range,
 * steps and waits finite and ≥ 0 where they are used; padding that is not finite is replaced by 0.
 * Waits come from `waitSteps` and nested entries' work from `workSteps`, or from `subWait` and
 * `subWork` when the input is `@parl/core`'s `CriticalStepsBatchInput`, so one object serves both.
 * Call inside `tf.tidy`.
 *
 * @throws `ParlInputError` (`@parl/core`) e.g. `groupSizes[1, 0] must be an integer between 0 and 4, got 7`
 */
export function stagedTensors(input: StagedBatchInput): StagedTensors {
  const B = requireDimension(input.batch, 'batch');
  const T = requireDimension(input.stages, 'stages');
  const N = requireDimension(input.width, 'width');
  let subSteps = toFloat32Tensor(input.subSteps, 'subSteps', [B, T, N]) as tf.Tensor3D;
  const groupSizes = (input.groupSizes === undefined ? filled([B, T], N) : toFloat32Tensor(input.groupSizes, 'groupSizes', [B, T])) as tf.Tensor2D;
  let mainSteps = (input.mainSteps === undefined ? filled([B, T], 1) : toFloat32Tensor(input.mainSteps, 'mainSteps', [B, T])) as tf.Tensor2D;
  const numStages = (input.numStages === undefined ? filled([B], T) : toFloat32Tensor(input.numStages, 'numStages', [B])) as tf.Tensor1D;
  // Order as in core: a bad stage count first, then per stage its group size, main steps, sub steps.
  const checks: InputCheck[] = [];
  if (input.numStages !== undefined) {
    checks.push({ field: 'numStages', shape: [B], ok: integerBetween(numStages, 0, T), values: input.numStages, expected: `an integer between 0 and ${T}` });
  }
  const { stage, slot } = stagedMasks({ subSteps, groupSizes, mainSteps, numStages });
  const stageUsed = tf.greater(stage, 0.5);
  const unused = tf.logicalNot(stageUsed);
  if (input.groupSizes !== undefined) {
    checks.push({
      field: 'groupSizes',
      shape: [B, T],
      ok: tf.logicalOr(unused, integerBetween(groupSizes, 0, N)),
      values: input.groupSizes,
      expected: `an integer between 0 and ${N}`,
    });
  }
  if (input.mainSteps !== undefined) {
    checks.push({ field: 'mainSteps', shape: [B, T], ok: tf.logicalOr(unused, finiteNonNegative(mainSteps)), values: input.mainSteps, expected: 'a finite number ≥ 0' });
    mainSteps = tf.where(stageUsed, mainSteps, tf.zerosLike(mainSteps)) as tf.Tensor2D;
  }
  // Fast path for the large [B, T, N] input: every entry finite and ≥ 0 (padding included).
  const stats = subSteps.size === 0 ? [] : [tf.min(subSteps), tf.sum(subSteps)];
  const [min, sum] = enforceChecks(checks, stats);
  if (min !== undefined && sum !== undefined && !(min >= 0 && Number.isFinite(sum))) {
    // Slow path: only the entries in use must be valid; the rest is padding, set to 0.
    const inUse = tf.greater(slot, 0.5);
    enforceChecks([
      { field: 'subSteps', shape: [B, T, N], ok: tf.logicalOr(tf.logicalNot(inUse), finiteNonNegative(subSteps)), values: input.subSteps, expected: 'a finite number ≥ 0' },
    ]);
    subSteps = tf.where(inUse, subSteps, tf.zerosLike(subSteps)) as tf.Tensor3D;
  }
  const fromCore = input as { readonly subWait?: NumericInput; readonly subWork?: NumericInput };
  const optional = (given: NumericInput | undefined, field: string, coreValue: NumericInput | undefined, coreField: string): tf.Tensor3D | undefined => {
    const values = given ?? coreValue;
    if (values === undefined) return undefined;
    const name = given === undefined ? coreField : field;
    const t = toFloat32Tensor(values, name, [B, T, N]) as tf.Tensor3D;
    const [min, sum] = enforceChecks([], t.size === 0 ? [] : [tf.min(t), tf.sum(t)]);
    if (min === undefined || sum === undefined || (min >= 0 && Number.isFinite(sum))) return t;
    // Only the entries in use must be valid; the rest is padding, set to 0.
    const inUse = tf.greater(slot, 0.5);
    enforceChecks([{ field: name, shape: [B, T, N], ok: tf.logicalOr(tf.logicalNot(inUse), finiteNonNegative(t)), values, expected: 'a finite number ≥ 0' }]);
    return tf.where(inUse, t, tf.zerosLike(t)) as tf.Tensor3D;
  };
  const waitSteps = optional(input.waitSteps, 'waitSteps', fromCore.subWait, 'subWait');
  const workSteps = optional(input.workSteps, 'workSteps', fromCore.subWork, 'subWork');
  return { subSteps, groupSizes, mainSteps, numStages, ...(waitSteps === undefined ? {} : { waitSteps }), ...(workSteps === undefined ? {} : { workSteps }) };
}
