/**
 * The input and output shapes of the batch kernels ({@link rewardBatch},
 * {@link criticalStepsBatch}), shared by their JavaScript and WebAssembly implementations.
 *
 * @module
 */
import type { BatchKernel } from './batch-kernel.js';

/** Any numeric array the kernels read. */
export type NumericArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | readonly number[];

/** The inputs of {@link rewardBatch}: one entry per episode, all of length B. */
export interface RewardBatchInput {
  /** Sub-agents launched per episode (≥ 0). */
  readonly numSubagents: NumericArray;
  /** Assigned subtasks per episode; defaults to numSubagents. */
  readonly assignedSubtasks?: NumericArray;
  /** Completed subtasks per episode; defaults to assigned. Must not exceed assigned. */
  readonly completedSubtasks?: NumericArray;
  /** r_perf per episode (finite). */
  readonly rPerf: NumericArray;
  /** Training step per episode (≥ 0); `config.step`, when set, overrides it; 0 for all when neither is given. */
  readonly trainingStep?: NumericArray;
  /**
   * The implementation to run (default: `PARL_KERNEL`, else `auto`). WebAssembly SIMD runs the
   * linear r_parallel over Float32Array or Float64Array inputs and at least two episodes; other
   * calls run JavaScript. Both give the same numbers, bit for bit.
   */
  readonly kernel?: BatchKernel;
}

/**
 * The outputs of {@link rewardBatch}: one Float64Array of length B per spec §3 field, under the
 * spec's names (the fields of {@link RewardBreakdown}), so that `out.total_reward[i]` is
 * `computeReward(record_i).total_reward`.
 */
export interface RewardBatchOutput {
  /** λ1·r_parallel + λ2·r_finish + r_perf. */
  readonly total_reward: Float64Array;
  /** r_parallel. */
  readonly r_parallel: Float64Array;
  /** r_finish. */
  readonly r_finish: Float64Array;
  /** r_perf (as given). */
  readonly r_perf: Float64Array;
  /** λ1(s). */
  readonly lambda1: Float64Array;
  /** λ2(s). */
  readonly lambda2: Float64Array;
  /** λ1·r_parallel. */
  readonly instantiation_component: Float64Array;
  /** λ2·r_finish. */
  readonly finish_component: Float64Array;
  /** r_perf. */
  readonly task_component: Float64Array;
}

/** The inputs of {@link criticalStepsBatch}. */
export interface CriticalStepsBatchInput {
  /** B, the number of episodes. */
  readonly batch: number;
  /** T, the stage capacity per episode. */
  readonly stages: number;
  /** N, the sub-agent capacity per stage. */
  readonly width: number;
  /** S_sub as a row-major `[B, T, N]` array; entries past a stage's group size are ignored. */
  readonly subSteps: Float32Array | Float64Array;
  /**
   * `[B, T, N]` total steps (work) per sub-agent, for episodes with nested sub-agent entries
   * (spec §5.2): there `subSteps` holds each entry's own critical steps and `subWork` its total
   * steps. Absent, each sub-agent's work is its `subSteps` value. Given, the JavaScript kernel runs.
   */
  readonly subWork?: Float32Array | Float64Array;
  /**
   * `[B, T, N]` wait steps per sub-agent (spec §2 `wait_steps`: steps of its group that elapsed
   * before it started), finite ≥ 0; a sub-agent's term in its stage's max is wait + its
   * `subSteps`. Waiting is not work. Absent, every wait is 0. Given, the JavaScript kernel runs.
   */
  readonly subWait?: Float32Array | Float64Array;
  /** Group size per stage, `[B, T]`, each in 0..N; defaults to N everywhere. */
  readonly groupSizes?: NumericArray;
  /** S_main per stage, `[B, T]`; defaults to 1 everywhere (the orchestrator's one step a stage). */
  readonly mainSteps?: NumericArray;
  /** Stages used per episode, `[B]`, each in 0..T; defaults to T. */
  readonly numStages?: NumericArray;
  /**
   * The implementation to run (default: `PARL_KERNEL`, else `auto`). WebAssembly SIMD runs
   * Float32Array steps (fastest when they come from {@link allocateCriticalStepsBatchInput});
   * Float64Array steps run JavaScript. Both give the same numbers, bit for bit.
   */
  readonly kernel?: BatchKernel;
}

/** A {@link CriticalStepsBatchInput} whose `subSteps` is a Float32Array. */
export interface CriticalStepsBatchFloat32Input extends CriticalStepsBatchInput {
  /** S_sub as a row-major `[B, T, N]` Float32Array. */
  readonly subSteps: Float32Array;
}

/** The outputs of {@link criticalStepsBatch}: one array of length B per field of {@link CriticalStepsResult}, under its name. */
export interface CriticalStepsBatchOutput {
  /** Σ_t (S_main + max_i (W_i + S_sub,i)), W_i the sub-agent's wait (`subWait`, else 0). */
  readonly critical_steps: Float64Array;
  /** Σ_t (S_main + Σ_i S_sub). */
  readonly total_steps: Float64Array;
  /** total / critical, or 1 when critical is 0. */
  readonly parallelism: Float64Array;
  /** Largest group size. */
  readonly max_width: Int32Array;
  /** T used: the stages of the episode (its `numStages`, else T). */
  readonly num_stages: Int32Array;
  /** Mean group size over the stages that launch a group (0 when none does). */
  readonly mean_width: Float64Array;
}

/** The field names of {@link RewardBatchOutput}, in the order of spec §3 (also the order of the WebAssembly kernel's output parameters). */
export const REWARD_BATCH_FIELDS = [
  'total_reward',
  'r_parallel',
  'r_finish',
  'r_perf',
  'lambda1',
  'lambda2',
  'instantiation_component',
  'finish_component',
  'task_component',
] as const satisfies readonly (keyof RewardBatchOutput)[];
