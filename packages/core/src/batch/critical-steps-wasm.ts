/**
 * {@link criticalStepsBatch} on the WebAssembly SIMD kernels (kernels.wat `critical_steps_whole`,
 * else `critical_steps`), and the allocation of inputs the kernels read where they are.
 *
 * @module
 */
import { requireCount } from '../errors.js';
import type { CriticalStepsBatchFloat32Input, CriticalStepsBatchInput, CriticalStepsBatchOutput, NumericArray } from './batch-types.js';
import { resolveBatchKernel } from './batch-kernel.js';
import { arenaOf, createArena, layOut, scratchArena, type Arena } from './wasm-arena.js';

/** What `critical_steps_whole` returns when `critical_steps` must run instead (kernels.wat). */
const WHOLE_DECLINED = -2;

/** Bytes of the per-call regions after the steps: group sizes, main steps, stage counts, six outputs. */
function scratchSizes(B: number, T: number): number[] {
  return [B * T * 4, B * T * 8, B * 4, B * 8, B * 8, B * 8, B * 4, B * 4, B * 8];
}

/**
 * An input for {@link criticalStepsBatch} of shape `[batch, stages, width]` whose `subSteps`
 * (zeros, to be filled) lives in WebAssembly memory, so that the SIMD kernel reads the steps
 * where they are instead of copying them first: the fastest way to call it on large batches.
 * Add `groupSizes`, `mainSteps` or `numStages` to the object as needed. Where the kernel does
 * not run (no WebAssembly SIMD, `kernel: 'js'`, `PARL_KERNEL=js`, or more than 2 GiB), the
 * steps are an ordinary Float32Array.
 *
 * @example
 * ```ts
 * const input = allocateCriticalStepsBatchInput(10_000, 10, 100); // 10,000 episodes × 10 stages × 100 sub-agents
 * input.subSteps.fill(2); // or set() your own steps, in place
 * const groupSizes = new Int32Array(10_000 * 10).fill(3); // 3 sub-agents in every stage
 * criticalStepsBatch({ ...input, groupSizes }).critical_steps[0]; // 30 = 10 stages × (1 main step + 2)
 * ```
 */
export function allocateCriticalStepsBatchInput(
  batch: number,
  stages: number,
  width: number,
  kernel?: CriticalStepsBatchInput['kernel'],
): CriticalStepsBatchFloat32Input {
  const B = requireCount(batch, 'batch');
  const T = requireCount(stages, 'stages');
  const N = requireCount(width, 'width');
  const cells = B * T * N;
  let subSteps: Float32Array | undefined;
  if (resolveBatchKernel(kernel) === 'wasm') {
    const owned = cells * 4 + 16;
    const { end } = layOut(owned, scratchSizes(B, T));
    const arena = createArena(end, owned);
    if (arena !== undefined) subSteps = new Float32Array(arena.memory.buffer, 0, cells);
  }
  return { batch: B, stages: T, width: N, subSteps: subSteps ?? new Float32Array(cells) };
}

/**
 * Copy the group sizes, main steps and stage counts of the stages that run into the arena as
 * int32, float64 and int32, validating them as the JavaScript kernel does. False when one is
 * invalid (the caller then runs the JavaScript kernel, which throws the error it names).
 */
function copyStageInputs(
  memory: ArrayBuffer,
  at: readonly number[],
  B: number,
  T: number,
  N: number,
  groups: NumericArray | undefined,
  mains: NumericArray | undefined,
  used: NumericArray | undefined,
): boolean {
  // nothing to copy or check when every default applies (the kernel uses N, 1 and T)
  if (groups === undefined && mains === undefined && used === undefined) return true;
  const groupsOut = new Int32Array(memory, at[0], B * T);
  const mainsOut = new Float64Array(memory, at[1], B * T);
  const usedOut = new Int32Array(memory, at[2], B);
  const perStage = groups !== undefined || mains !== undefined;
  for (let b = 0; b < B; b++) {
    const stageCount = used === undefined ? T : (used[b] as number);
    if (!(stageCount >= 0 && stageCount <= T && Number.isInteger(stageCount))) return false;
    usedOut[b] = stageCount;
    if (!perStage) continue;
    for (let t = 0, bt = b * T; t < stageCount; t++, bt++) {
      if (groups !== undefined) {
        const k = groups[bt] as number;
        if (!(k >= 0 && k <= N && (k | 0) === k)) return false;
        groupsOut[bt] = k;
      }
      if (mains !== undefined) {
        const main = mains[bt] as number;
        if (!(main >= 0 && main < Infinity) || typeof main !== 'number') return false;
        mainsOut[bt] = main;
      }
    }
  }
  return true;
}

/**
 * Run the WebAssembly kernel on shape-checked input with Float32Array steps, writing `out`.
 * False when the kernel cannot run here (no memory for it) or an input is invalid: the caller
 * then runs the JavaScript kernel, which gives the same results or throws the error for the
 * first invalid input.
 */
export function criticalStepsWasm(
  B: number,
  T: number,
  N: number,
  sub: Float32Array,
  groups: NumericArray | undefined,
  mains: NumericArray | undefined,
  used: NumericArray | undefined,
  out: CriticalStepsBatchOutput,
): boolean {
  // The steps stay where they are when they live in an arena with room for this call after
  // them (and 16 readable bytes past them); else they are copied into the scratch arena.
  const home = arenaOf(sub);
  let arena: Arena | undefined;
  let subAt = 0;
  let regions: { offsets: number[]; end: number } | undefined;
  if (home !== undefined && sub.byteOffset + sub.byteLength + 16 <= home.base) {
    const plan = layOut(home.base, scratchSizes(B, T));
    if (plan.end <= home.memory.buffer.byteLength) {
      arena = home;
      subAt = sub.byteOffset;
      regions = plan;
    }
  }
  if (arena === undefined || regions === undefined) {
    const plan = layOut(0, [sub.byteLength, ...scratchSizes(B, T)]);
    arena = scratchArena(plan.end);
    if (arena === undefined) return false;
    subAt = plan.offsets[0] as number;
    regions = { offsets: plan.offsets.slice(1), end: plan.end };
    new Float32Array(arena.memory.buffer, subAt, sub.length).set(sub);
  }
  const memory = arena.memory.buffer;
  const at = regions.offsets;
  if (!copyStageInputs(memory, at, B, T, N, groups, mains, used)) return false;
  const flags = (groups === undefined ? 0 : 1) | (mains === undefined ? 0 : 2) | (used === undefined ? 0 : 4);
  const [groupsAt, mainsAt, usedAt, criticalAt, totalAt, parallelismAt, maxWidthAt, stagesAt, meanWidthAt] = at as [
    number, number, number, number, number, number, number, number, number,
  ];
  // The float32-sum kernel first (steps seen in practice: whole numbers and the like); where it
  // cannot prove its sums exact (-2), the one that sums in float64 does the whole batch.
  const kernels = arena.kernels;
  let bad = kernels.critical_steps_whole(
    B, T, N, subAt, groupsAt, mainsAt, usedAt, flags, criticalAt, totalAt, parallelismAt, maxWidthAt, stagesAt, meanWidthAt,
  );
  if (bad === WHOLE_DECLINED) {
    bad = kernels.critical_steps(B, T, N, subAt, groupsAt, mainsAt, usedAt, flags, criticalAt, totalAt, parallelismAt, maxWidthAt, stagesAt, meanWidthAt);
  }
  if (bad >= 0) return false;
  out.critical_steps.set(new Float64Array(memory, at[3], B));
  out.total_steps.set(new Float64Array(memory, at[4], B));
  out.parallelism.set(new Float64Array(memory, at[5], B));
  out.max_width.set(new Int32Array(memory, at[6], B));
  out.num_stages.set(new Int32Array(memory, at[7], B));
  out.mean_width.set(new Float64Array(memory, at[8], B));
  return true;
}
