/**
 * The spec §3 reward for B episodes on tensors: λ1(s)·r_parallel + λ2(s)·r_finish + r_perf, with a
 * training step per episode whose λ1, λ2 come from `@parl/core` schedules.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import {
  ParlInputError,
  resolveRewardConfig,
  type ParallelShape,
  type ResolvedRewardConfig,
  type RewardConfig,
  type Schedule,
} from '@parl/core';
import { constantComparison } from './gradients.js';
import { enforceChecks, finiteNonNegative, type InputCheck } from './input-checks.js';
import { outputMode, toArrays, type KernelOptions } from './output.js';
import { isTensor, toFloat32Tensor, type NumericInput } from './tensor-input.js';

/** The tensors {@link rewardOp} combines, all float32 of shape `[B]`. */
export interface RewardOpInput {
  /** Sub-agents launched, `[B]`. */
  readonly numSubagents: tf.Tensor;
  /** Assigned subtasks, `[B]`. */
  readonly assignedSubtasks: tf.Tensor;
  /** Completed subtasks, `[B]`. */
  readonly completedSubtasks: tf.Tensor;
  /** r_perf, `[B]`. */
  readonly rPerf: tf.Tensor;
  /** λ1(s) per episode, `[B]`. */
  readonly lambda1: tf.Tensor;
  /** λ2(s) per episode, `[B]`. */
  readonly lambda2: tf.Tensor;
}

/** The reward terms of B episodes as float32 tensors of shape `[B]`: every spec §3 field, by its spec name. */
export type RewardTensors = {
  /** λ1·r_parallel + λ2·r_finish + r_perf. */
  readonly total_reward: tf.Tensor1D;
  /** clamp(n / max, 0, 1), or clamp(ln(1+n) / ln(1+max), 0, 1) for the `log` shape. */
  readonly r_parallel: tf.Tensor1D;
  /** completed / assigned, or 0 when assigned is 0. */
  readonly r_finish: tf.Tensor1D;
  /** r_perf as given. */
  readonly r_perf: tf.Tensor1D;
  /** λ1(s). */
  readonly lambda1: tf.Tensor1D;
  /** λ2(s). */
  readonly lambda2: tf.Tensor1D;
  /** λ1·r_parallel. */
  readonly instantiation_component: tf.Tensor1D;
  /** λ2·r_finish. */
  readonly finish_component: tf.Tensor1D;
  /** r_perf. */
  readonly task_component: tf.Tensor1D;
};

/** {@link RewardTensors} downloaded: one Float32Array of length B per field. */
export interface RewardArrays {
  /** λ1·r_parallel + λ2·r_finish + r_perf. */
  readonly total_reward: Float32Array;
  /** r_parallel. */
  readonly r_parallel: Float32Array;
  /** r_finish. */
  readonly r_finish: Float32Array;
  /** r_perf. */
  readonly r_perf: Float32Array;
  /** λ1(s). */
  readonly lambda1: Float32Array;
  /** λ2(s). */
  readonly lambda2: Float32Array;
  /** λ1·r_parallel. */
  readonly instantiation_component: Float32Array;
  /** λ2·r_finish. */
  readonly finish_component: Float32Array;
  /** r_perf. */
  readonly task_component: Float32Array;
}

/** Options of {@link rewardOp}. */
export interface RewardOpOptions {
  /** max_subagents (default 100). */
  readonly maxSubagents?: number;
  /** Shape of r_parallel (default `linear`). */
  readonly parallelShape?: ParallelShape;
}

/**
 * The reward as differentiable tensor arithmetic, with no validation and no download: use it
 * inside `tf.grad` / `tf.valueAndGrad`. Inputs must be valid (see {@link rewardKernel}, which
 * validates and then calls this).
 *
 * Gradients: ∂total/∂r_perf = 1; ∂total/∂λ1 = r_parallel; ∂total/∂n = λ1/max where
 * 0 < n/max < 1 (0 where clamped); ∂total/∂completed = λ2/assigned.
 *
 * @example
 * ```ts
 * const [numSubagents, assignedSubtasks, completedSubtasks, rPerf, lambda1, lambda2] = [[25], [5], [4], [0.8], [0.1], [0.1]].map((v) => tf.tensor1d(v));
 * const inputs = { numSubagents, assignedSubtasks, completedSubtasks, rPerf, lambda1, lambda2 };
 * const dPerf = tf.grad((rPerf: tf.Tensor) =>
 *   tf.sum(rewardOp({ ...inputs, rPerf }).total_reward),
 * )(inputs.rPerf); // ones
 * ```
 */
export function rewardOp(input: RewardOpInput, options: RewardOpOptions = {}): RewardTensors {
  const max = options.maxSubagents ?? 100;
  const shape = options.parallelShape ?? 'linear';
  return tf.tidy(() => {
    const n = input.numSubagents;
    const ratio = shape === 'log' ? tf.div(tf.log1p(n), Math.log1p(max)) : tf.div(n, max);
    const rParallel = tf.clipByValue(ratio, 0, 1);
    const assigned = input.assignedSubtasks;
    const hasWork = constantComparison(assigned, (a) => tf.greater(a, 0));
    const safeAssigned = tf.where(hasWork, assigned, tf.onesLike(assigned));
    const rFinish = tf.where(hasWork, tf.div(input.completedSubtasks, safeAssigned), tf.zerosLike(assigned));
    const instantiation = tf.mul(input.lambda1, rParallel);
    const finish = tf.mul(input.lambda2, rFinish);
    const total = tf.add(tf.add(instantiation, finish), input.rPerf);
    return {
      total_reward: total as tf.Tensor1D,
      r_parallel: rParallel as tf.Tensor1D,
      r_finish: rFinish as tf.Tensor1D,
      r_perf: tf.clone(input.rPerf) as tf.Tensor1D,
      lambda1: tf.clone(input.lambda1) as tf.Tensor1D,
      lambda2: tf.clone(input.lambda2) as tf.Tensor1D,
      instantiation_component: instantiation as tf.Tensor1D,
      finish_component: finish as tf.Tensor1D,
      task_component: tf.clone(input.rPerf) as tf.Tensor1D,
    };
  });
}

/**
 * The inputs of {@link rewardKernel}: the fields of `@parl/core`'s `RewardBatchInput`, each a
 * typed array, number array or tensor of shape `[B]` (the same object works with `rewardBatch`).
 */
export interface RewardKernelInput {
  /** Sub-agents launched per episode (finite, ≥ 0), `[B]`. */
  readonly numSubagents: NumericInput;
  /** Assigned subtasks per episode (finite, ≥ 0), `[B]`; defaults to numSubagents. */
  readonly assignedSubtasks?: NumericInput;
  /** Completed subtasks per episode (0 ≤ completed ≤ assigned), `[B]`; defaults to assigned. */
  readonly completedSubtasks?: NumericInput;
  /** r_perf per episode (finite), `[B]`. */
  readonly rPerf: NumericInput;
  /**
   * Training step per episode (finite, ≥ 0), `[B]`; defaults to `config.step`, else 0. λ1 and
   * λ2 are evaluated on the host by the `@parl/core` schedules, so a tensor given here is read
   * back once.
   */
  readonly trainingStep?: NumericInput;
}

function lambdas(schedule: Schedule, steps: ArrayLike<number> | undefined, fallback: number, size: number, which: string): Float32Array {
  if (steps === undefined) return new Float32Array(size).fill(schedule.at(fallback));
  try {
    return Float32Array.from(schedule.atMany(steps));
  } catch (err) {
    if (err instanceof ParlInputError && err.field.startsWith('steps[')) {
      throw new ParlInputError(`trainingStep${err.field.slice('steps'.length)}`, err.value, err.expected);
    }
    throw new Error(`evaluating ${which}: ${String(err)}`);
  }
}

function batchSizeOf(value: NumericInput): number {
  if (isTensor(value)) return value.size;
  if (!(Array.isArray(value) || ArrayBuffer.isView(value))) {
    throw new ParlInputError('numSubagents', value, 'a typed array, a number array or a tf.Tensor of shape [B]');
  }
  return (value as ArrayLike<number>).length;
}

/**
 * The spec §3 reward of B episodes as float32 tensors (default) or typed arrays
 * (`{ output: 'array' }`). Equals `@parl/core`'s `rewardBatch` on the same input to float32
 * precision (relative error ≤ 1e-5, tested on every backend).
 *
 * Inputs are validated on the device with one small download; a bad element is named by index
 * (`completedSubtasks[3] must be a finite number between 0 and assignedSubtasks[3] = 2, got 5`).
 * Every intermediate tensor is freed: with `output: 'array'` the tensor count is unchanged after
 * the call; with tensors, disposing the returned tensors restores it.
 *
 * @param input - `[B]` arrays or tensors (see {@link RewardKernelInput})
 * @param config - reward options as for `@parl/core`'s `computeReward` (`budget` does not apply)
 * @param options - `{ output: 'tensor' | 'array' }`
 * @throws `ParlInputError` (`@parl/core`) naming the field, index, value and expectation
 *
 * @example
 * ```ts
 * const r = rewardKernel(
 *   { numSubagents: [0, 25, 100], rPerf: [0.5, 0.8, 1], trainingStep: [0, 5000, 10000] },
 *   {},
 *   { output: 'array' },
 * );
 * r.total_reward; // Float32Array [0.7, 0.8625, 1]
 * ```
 */
export function rewardKernel(input: RewardKernelInput, config?: RewardConfig | ResolvedRewardConfig, options?: { readonly output?: 'tensor' }): RewardTensors;
export function rewardKernel(input: RewardKernelInput, config: RewardConfig | ResolvedRewardConfig | undefined, options: { readonly output: 'array' }): RewardArrays;
export function rewardKernel(input: RewardKernelInput, config?: RewardConfig | ResolvedRewardConfig, options?: KernelOptions): RewardTensors | RewardArrays;
export function rewardKernel(
  input: RewardKernelInput,
  config: RewardConfig | ResolvedRewardConfig = {},
  options?: KernelOptions,
): RewardTensors | RewardArrays {
  const mode = outputMode(options);
  const cfg = resolveRewardConfig(config);
  const size = batchSizeOf(input.numSubagents);
  const shape = [size];

  // λ on the host, by core's schedules (one download when the steps are a tensor).
  let steps: ArrayLike<number> | undefined;
  if (input.trainingStep !== undefined) {
    if (isTensor(input.trainingStep)) {
      if (input.trainingStep.size !== size) {
        throw new ParlInputError('trainingStep.shape', input.trainingStep.shape, `${size} elements (shape [${size}])`);
      }
      steps = input.trainingStep.dataSync() as ArrayLike<number>;
    } else {
      steps = input.trainingStep as ArrayLike<number>;
      if (!(Array.isArray(steps) || ArrayBuffer.isView(steps))) {
        throw new ParlInputError('trainingStep', steps, `a typed array, a number array or a tf.Tensor of shape [${size}]`);
      }
      if (steps.length !== size) throw new ParlInputError('trainingStep.length', steps.length, `${size} (shape [${size}])`);
    }
  }
  const lambda1 = lambdas(cfg.lambda1, steps, cfg.step ?? 0, size, 'lambda1');
  const lambda2 = lambdas(cfg.lambda2, steps, cfg.step ?? 0, size, 'lambda2');

  const result = tf.tidy(() => {
    const n = toFloat32Tensor(input.numSubagents, 'numSubagents', shape);
    const assigned = input.assignedSubtasks === undefined ? n : toFloat32Tensor(input.assignedSubtasks, 'assignedSubtasks', shape);
    const completed =
      input.completedSubtasks === undefined ? assigned : toFloat32Tensor(input.completedSubtasks, 'completedSubtasks', shape);
    const rPerf = toFloat32Tensor(input.rPerf, 'rPerf', shape);
    const checks: InputCheck[] = [
      { field: 'numSubagents', shape, ok: finiteNonNegative(n), values: input.numSubagents, expected: 'a finite number ≥ 0' },
    ];
    if (input.assignedSubtasks !== undefined) {
      checks.push({ field: 'assignedSubtasks', shape, ok: finiteNonNegative(assigned), values: input.assignedSubtasks, expected: 'a finite number ≥ 0' });
    }
    if (input.completedSubtasks !== undefined) {
      const assignedValues = assigned.dataSync.bind(assigned);
      checks.push({
        field: 'completedSubtasks',
        shape,
        ok: tf.logicalAnd(finiteNonNegative(completed), tf.lessEqual(completed, assigned)),
        values: input.completedSubtasks,
        expected: (i) => `a finite number between 0 and assignedSubtasks[${i}] = ${assignedValues()[i]}`,
      });
    }
    checks.push({ field: 'rPerf', shape, ok: tf.isFinite(rPerf), values: input.rPerf, expected: 'a finite number' });
    enforceChecks(checks);
    return rewardOp(
      {
        numSubagents: n,
        assignedSubtasks: assigned,
        completedSubtasks: completed,
        rPerf,
        lambda1: tf.tensor1d(lambda1, 'float32'),
        lambda2: tf.tensor1d(lambda2, 'float32'),
      },
      { maxSubagents: cfg.maxSubagents, parallelShape: cfg.parallelShape },
    );
  });
  return mode === 'array' ? (toArrays(result) as unknown as RewardArrays) : result;
}
