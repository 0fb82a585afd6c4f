/**
 * Every field of {@link criticalSteps} (critical and total steps, parallelism, stages, max and
 * mean width) for B staged episodes at once, over a
 * dense `[B, T, N]` Float32Array with per-stage group sizes for ragged input, and optional
 * `[B, T, N]` waits (spec §2 `wait_steps`).
 *
 * Results equal {@link criticalSteps} on the same episodes one at a time, bit for bit: both
 * accumulate in float64 in stage order. Float32Array steps run on a WebAssembly SIMD kernel
 * where the runtime has one (critical-steps-wasm.ts), with the same results.
 *
 * @module
 */
import { ParlInputError, requireCount } from '../errors.js';
import type { CriticalStepsResult } from '../critical-steps.js';
import { batchKernelFor } from './batch-kernel.js';
import type { CriticalStepsBatchInput, CriticalStepsBatchOutput, NumericArray } from './batch-types.js';
import { criticalStepsWasm } from './critical-steps-wasm.js';

/** The field names of {@link CriticalStepsBatchOutput}: those of {@link CriticalStepsResult}. */
export const CRITICAL_STEPS_BATCH_FIELDS = [
  'critical_steps',
  'total_steps',
  'parallelism',
  'num_stages',
  'max_width',
  'mean_width',
] as const satisfies readonly (keyof CriticalStepsBatchOutput & keyof CriticalStepsResult)[];

/** Allocate the outputs of {@link criticalStepsBatch} for B episodes, to reuse across calls. */
export function allocateCriticalStepsBatchOutput(size: number): CriticalStepsBatchOutput {
  return {
    critical_steps: new Float64Array(size),
    total_steps: new Float64Array(size),
    parallelism: new Float64Array(size),
    max_width: new Int32Array(size),
    num_stages: new Int32Array(size),
    mean_width: new Float64Array(size),
  };
}

/** Under this many `[B, T, N]` cells, `auto` runs the JavaScript kernel (faster there: measured in bench/). */
const AUTO_WASM_MIN_CELLS = 1024;

function expectLength(name: string, arr: { length: number } | undefined, size: number, shape: string): void {
  if (arr !== undefined && arr.length !== size) {
    throw new ParlInputError(`${name}.length`, arr.length, `${size} (shape ${shape})`);
  }
}

/**
 * Critical steps for B ragged staged episodes stored densely.
 *
 * @throws {@link ParlInputError} for a wrong shape, a group size outside 0..N, or a step or wait
 *   that is negative or not finite (named by its `[b, t, i]` index)
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
  const work = input.subWork;
  expectLength('subWork', work, B * T * N, shape);
  const wait = input.subWait;
  expectLength('subWait', wait, B * T * N, shape);
  const groups = input.groupSizes;
  const mains = input.mainSteps;
  const used = input.numStages;
  expectLength('groupSizes', groups, B * T, `[${B}, ${T}]`);
  expectLength('mainSteps', mains, B * T, `[${B}, ${T}]`);
  expectLength('numStages', used, B, `[${B}]`);
  const result = out ?? allocateCriticalStepsBatchOutput(B);
  for (const key of CRITICAL_STEPS_BATCH_FIELDS) {
    if (result[key].length < B) throw new ParlInputError(`out.${key}.length`, result[key].length, `at least ${B}`);
  }
  // The WebAssembly kernel declines (returns false) where it cannot run or an input is invalid;
  // the JavaScript kernel then computes the same results or throws the error naming the input.
  if (
    work === undefined &&
    wait === undefined &&
    sub instanceof Float32Array &&
    B * T * N > 0 &&
    batchKernelFor(input.kernel, B * T * N, AUTO_WASM_MIN_CELLS) === 'wasm' &&
    criticalStepsWasm(B, T, N, sub, groups, mains, used, result)
  ) {
    return result;
  }
  stagedKernel(B, T, N, sub, groups, mains, used, result);
  if (work !== undefined) nestedTotals(B, T, N, sub, work, groups, mains, used, result);
  if (wait !== undefined) waitedCritical(B, T, N, sub, wait, groups, mains, used, result);
  return result;
}

/**
 * With waits (spec §2 `wait_steps`): critical steps and parallelism again, each stage's max over
 * wait + steps, in the order `criticalStepsOfStages` sums them (stage-sums.ts). The counts and
 * `sub` were checked by {@link stagedKernel}; total steps (work) do not include waiting.
 */
function waitedCritical(
  B: number,
  T: number,
  N: number,
  sub: Float32Array | Float64Array,
  wait: Float32Array | Float64Array,
  groups: NumericArray | undefined,
  mains: NumericArray | undefined,
  used: NumericArray | undefined,
  out: CriticalStepsBatchOutput,
): void {
  for (let b = 0; b < B; b++) {
    const stageCount = used === undefined ? T : (used[b] as number);
    let critical = 0;
    for (let t = 0; t < stageCount; t++) {
      const bt = b * T + t;
      const k = groups === undefined ? N : (groups[bt] as number);
      const main = mains === undefined ? 1 : (mains[bt] as number);
      const base = bt * N;
      let stageMax = 0;
      for (let j = base; j < base + k; j++) {
        const w = wait[j] as number;
        if (!(w >= 0 && w < Infinity)) throw badStep('subWait', [b, t, j - base], w);
        const s = w + (sub[j] as number);
        if (s > stageMax) stageMax = s;
      }
      critical += main + stageMax;
    }
    const total = out.total_steps[b] as number;
    out.critical_steps[b] = critical;
    out.parallelism[b] = critical === 0 ? 1 : total / critical;
  }
}

/**
 * The loop of {@link criticalStepsBatch}, after the shapes are checked: per episode and stage,
 * the same operations in the same order as {@link criticalStepsOfStages}, so that results
 * agree bit for bit. Error paths live in small functions of their own, to keep this one lean.
 */
function stagedKernel(
  B: number,
  T: number,
  N: number,
  sub: Float32Array | Float64Array,
  groups: NumericArray | undefined,
  mains: NumericArray | undefined,
  used: NumericArray | undefined,
  out: CriticalStepsBatchOutput,
): void {
  const { critical_steps, total_steps, parallelism, max_width, num_stages, mean_width } = out;
  for (let b = 0; b < B; b++) {
    const stageCount = used === undefined ? T : (used[b] as number);
    if (!(stageCount >= 0 && stageCount <= T && Number.isInteger(stageCount))) throw badCount('numStages', [b], stageCount, T);
    let critical = 0;
    let total = 0;
    let widest = 0;
    let groupCount = 0;
    let widthSum = 0;
    for (let t = 0; t < stageCount; t++) {
      const bt = b * T + t;
      const k = groups === undefined ? N : (groups[bt] as number);
      if (!(k >= 0 && k <= N && (k | 0) === k)) throw badCount('groupSizes', [b, t], k, N);
      const main = mains === undefined ? 1 : (mains[bt] as number);
      if (!(main >= 0 && main < Infinity) || typeof main !== 'number') throw badStep('mainSteps', [b, t], main);
      // The hot loop: eight entries a round, so that V8's per-iteration checks (map, bounds,
      // interrupt) are paid once per eight. The sum keeps the entries' order, so it equals the
      // scalar sum bit for bit. Validation is folded: a negative or NaN entry sets `bad`; an
      // infinite one makes the sum infinite or NaN; either sends us to `findBadStep`.
      const base = bt * N;
      const end = base + k;
      let stageMax = 0;
      let stageSum = 0;
      let bad = false;
      let j = base;
      for (; j + 8 <= end; j += 8) {
        const v0 = sub[j] as number;
        const v1 = sub[j + 1] as number;
        const v2 = sub[j + 2] as number;
        const v3 = sub[j + 3] as number;
        const v4 = sub[j + 4] as number;
        const v5 = sub[j + 5] as number;
        const v6 = sub[j + 6] as number;
        const v7 = sub[j + 7] as number;
        if (!(v0 >= 0 && v1 >= 0 && v2 >= 0 && v3 >= 0 && v4 >= 0 && v5 >= 0 && v6 >= 0 && v7 >= 0)) bad = true;
        stageSum = stageSum + v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
        if (v0 > stageMax) stageMax = v0;
        if (v1 > stageMax) stageMax = v1;
        if (v2 > stageMax) stageMax = v2;
        if (v3 > stageMax) stageMax = v3;
        if (v4 > stageMax) stageMax = v4;
        if (v5 > stageMax) stageMax = v5;
        if (v6 > stageMax) stageMax = v6;
        if (v7 > stageMax) stageMax = v7;
      }
      for (; j < end; j++) {
        const v = sub[j] as number;
        if (!(v >= 0)) bad = true;
        stageSum += v;
        if (v > stageMax) stageMax = v;
      }
      if (bad || !(stageSum < Infinity)) findBadStep(sub, base, end, b, t);
      critical += main + stageMax;
      total += main + stageSum;
      if (k > 0) {
        groupCount++;
        widthSum += k;
        if (k > widest) widest = k;
      }
    }
    critical_steps[b] = critical;
    total_steps[b] = total;
    parallelism[b] = critical === 0 ? 1 : total / critical;
    max_width[b] = widest;
    num_stages[b] = stageCount;
    mean_width[b] = groupCount === 0 ? 0 : widthSum / groupCount;
  }
}

/**
 * With nested entries (spec §5.2): total steps and parallelism again from `work`, in the order
 * `criticalStepsOfStages` sums them. The counts and `sub` were checked by {@link stagedKernel}.
 */
function nestedTotals(
  B: number,
  T: number,
  N: number,
  sub: Float32Array | Float64Array,
  work: Float32Array | Float64Array,
  groups: NumericArray | undefined,
  mains: NumericArray | undefined,
  used: NumericArray | undefined,
  out: CriticalStepsBatchOutput,
): void {
  for (let b = 0; b < B; b++) {
    const stageCount = used === undefined ? T : (used[b] as number);
    let total = 0;
    for (let t = 0; t < stageCount; t++) {
      const bt = b * T + t;
      const k = groups === undefined ? N : (groups[bt] as number);
      const main = mains === undefined ? 1 : (mains[bt] as number);
      const base = bt * N;
      let stageSum = 0;
      for (let j = base; j < base + k; j++) {
        const w = work[j] as number;
        if (!(w >= 0 && w < Infinity)) throw badStep('subWork', [b, t, j - base], w);
        if (w < (sub[j] as number)) {
          throw new ParlInputError(`subWork[${b}, ${t}, ${j - base}]`, w, `at least the entry's critical steps subSteps[${b}, ${t}, ${j - base}] (${sub[j]})`);
        }
        stageSum += w;
      }
      total += main + stageSum;
    }
    const critical = out.critical_steps[b] as number;
    out.total_steps[b] = total;
    out.parallelism[b] = critical === 0 ? 1 : total / critical;
  }
}

/** The error for a count (group size, stage count) outside 0..limit. */
function badCount(name: string, index: number[], value: number, limit: number): ParlInputError {
  return new ParlInputError(`${name}[${index.join(', ')}]`, value, `an integer between 0 and ${limit}`);
}

/** The error for a step that is negative or not finite. */
function badStep(name: string, index: number[], value: number): ParlInputError {
  return new ParlInputError(`${name}[${index.join(', ')}]`, value, 'a finite number ≥ 0');
}

/**
 * Throw for the first entry of `sub[base..end)` that is negative or not finite. Returns
 * normally when there is none: the entries are finite but their sum overflowed, which the
 * scalar {@link criticalSteps} reports the same way (as Infinity).
 */
function findBadStep(sub: Float32Array | Float64Array, base: number, end: number, b: number, t: number): void {
  for (let j = base; j < end; j++) {
    const v = sub[j] as number;
    if (!(v >= 0 && v < Infinity)) throw badStep('subSteps', [b, t, j - base], v);
  }
}
