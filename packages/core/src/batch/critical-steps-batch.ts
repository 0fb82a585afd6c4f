/**
 * Critical steps, total steps, parallelism and max width for B staged episodes at once, over a
 * dense `[B, T, N]` Float32Array with per-stage group sizes for ragged input.
 *
 * Results equal {@link criticalSteps} on the same episodes one at a time, bit for bit: both
 * accumulate in float64 in stage order.
 *
 * @module
 */
import { ParlInputError, requireCount } from '../errors.js';
import type { NumericArray } from './reward-batch.js';

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
  /** Group size per stage, `[B, T]`, each in 0..N; defaults to N everywhere. */
  readonly groupSizes?: NumericArray;
  /** S_main per stage, `[B, T]`; defaults to 1 everywhere (the orchestrator's one step a stage). */
  readonly mainSteps?: NumericArray;
  /** Stages used per episode, `[B]`, each in 0..T; defaults to T. */
  readonly numStages?: NumericArray;
}

/** The outputs of {@link criticalStepsBatch}: arrays of length B. */
export interface CriticalStepsBatchOutput {
  /** Σ_t (S_main + max_i S_sub). */
  readonly critical_steps: Float64Array;
  /** Σ_t (S_main + Σ_i S_sub). */
  readonly total_steps: Float64Array;
  /** total / critical, or 1 when critical is 0. */
  readonly parallelism: Float64Array;
  /** Largest group size. */
  readonly max_width: Int32Array;
}

/** Allocate the outputs of {@link criticalStepsBatch} for B episodes, to reuse across calls. */
export function allocateCriticalStepsBatchOutput(size: number): CriticalStepsBatchOutput {
  return {
    critical_steps: new Float64Array(size),
    total_steps: new Float64Array(size),
    parallelism: new Float64Array(size),
    max_width: new Int32Array(size),
  };
}

function expectLength(name: string, arr: { length: number } | undefined, size: number, shape: string): void {
  if (arr !== undefined && arr.length !== size) {
    throw new ParlInputError(`${name}.length`, arr.length, `${size} (shape ${shape})`);
  }
}

/**
 * Critical steps for B ragged staged episodes stored densely.
 *
 * @throws {@link ParlInputError} for a wrong shape, a group size outside 0..N, or a step that is
 *   negative or not finite (named by its `[b, t, i]` index)
 *
 * @example
 * ```ts
 * // B = 1 episode, T = 2 stages, N = 3 slots: stage 0 has sub-agents [3, 5, 2], stage 1 none.
 * criticalStepsBatch({
 *   batch: 1, stages: 2, width: 3,
 *   subSteps: new Float32Array([3, 5, 2, 0, 0, 0]),
 *   groupSizes: new Int32Array([3, 0]),
 * }).critical_steps; // Float64Array [7]
 * ```
 */
export function criticalStepsBatch(input: CriticalStepsBatchInput, out?: CriticalStepsBatchOutput): CriticalStepsBatchOutput {
  const B = requireCount(input.batch, 'batch');
  const T = requireCount(input.stages, 'stages');
  const N = requireCount(input.width, 'width');
  const shape = `[${B}, ${T}, ${N}]`;
  const sub = input.subSteps;
  expectLength('subSteps', sub, B * T * N, shape);
  const groups = input.groupSizes;
  const mains = input.mainSteps;
  const used = input.numStages;
  expectLength('groupSizes', groups, B * T, `[${B}, ${T}]`);
  expectLength('mainSteps', mains, B * T, `[${B}, ${T}]`);
  expectLength('numStages', used, B, `[${B}]`);
  const result = out ?? allocateCriticalStepsBatchOutput(B);
  for (const key of ['critical_steps', 'total_steps', 'parallelism', 'max_width'] as const) {
    if (result[key].length < B) throw new ParlInputError(`out.${key}.length`, result[key].length, `at least ${B}`);
  }
  const { critical_steps, total_steps, parallelism, max_width } = result;

  for (let b = 0; b < B; b++) {
    const stageCount = used === undefined ? T : (used[b] as number);
    if (!(Number.isInteger(stageCount) && stageCount >= 0 && stageCount <= T)) {
      throw new ParlInputError(`numStages[${b}]`, stageCount, `an integer between 0 and ${T}`);
    }
    let critical = 0;
    let total = 0;
    let widest = 0;
    for (let t = 0; t < stageCount; t++) {
      const bt = b * T + t;
      const k = groups === undefined ? N : (groups[bt] as number);
      if (!(k >= 0 && k <= N && (k | 0) === k)) {
        throw new ParlInputError(`groupSizes[${b}, ${t}]`, k, `an integer between 0 and ${N}`);
      }
      const main = mains === undefined ? 1 : (mains[bt] as number);
      if (!(main >= 0 && main < Infinity)) throw new ParlInputError(`mainSteps[${b}, ${t}]`, main, 'a finite number ≥ 0');
      let stageMax = 0;
      let stageSum = 0;
      const base = bt * N;
      const end = base + k;
      for (let j = base; j < end; j++) {
        const v = sub[j] as number;
        if (!(v >= 0 && v < Infinity)) {
          throw new ParlInputError(`subSteps[${b}, ${t}, ${j - base}]`, v, 'a finite number ≥ 0');
        }
        stageSum += v;
        if (v > stageMax) stageMax = v;
      }
      critical += main + stageMax;
      total += main + stageSum;
      if (k > widest) widest = k;
    }
    critical_steps[b] = critical;
    total_steps[b] = total;
    parallelism[b] = critical === 0 ? 1 : total / critical;
    max_width[b] = widest;
  }
  return result;
}
