/**
 * {@link rewardBatch} on the WebAssembly SIMD kernel (kernels.wat `reward`), and the arrays it
 * reads and writes where they are.
 *
 * @module
 */
import { ParlInputError, requireCount } from '../errors.js';
import type { ResolvedRewardConfig } from '../reward.js';
import { parseSchedule, sameSchedule, type Schedule } from '../schedules.js';
import { resolveBatchKernel, type BatchKernel } from './batch-kernel.js';
import { REWARD_BATCH_FIELDS, type NumericArray, type RewardBatchInput, type RewardBatchOutput } from './batch-types.js';
import { arenaOf, createArena, layOut, scratchArena, type Arena } from './wasm-arena.js';

/** The output fields in the order of the kernel's output parameters: spec §3's. */
const OUTPUT_ORDER = REWARD_BATCH_FIELDS;

/** The inputs the kernel reads, in the order of its input parameters, with their bit in `kinds`. */
const INPUT_ORDER = ['numSubagents', 'assignedSubtasks', 'completedSubtasks', 'rPerf', 'trainingStep'] as const;

/**
 * The output arrays of {@link rewardBatch} for B episodes, to reuse across calls: in
 * WebAssembly memory where the SIMD kernel runs (it then writes them in place, with room for
 * its inputs beside them), else ordinary Float64Arrays.
 *
 * @param size - B, the number of episodes
 * @param kernel - as `kernel` in {@link RewardBatchInput}: `js` gives ordinary arrays
 */
export function allocateRewardBatchOutput(size: number, kernel?: BatchKernel): RewardBatchOutput {
  const B = requireCount(size, 'size');
  if (B > 0 && resolveBatchKernel(kernel) === 'wasm') {
    const owned = layOut(0, OUTPUT_ORDER.map(() => B * 8));
    const arena = createArena(layOut(owned.end, INPUT_ORDER.map(() => B * 8)).end, owned.end);
    if (arena !== undefined) {
      return outputsOf((i) => new Float64Array(arena.memory.buffer, owned.offsets[i], B));
    }
  }
  return {
    total_reward: new Float64Array(B),
    r_parallel: new Float64Array(B),
    r_finish: new Float64Array(B),
    r_perf: new Float64Array(B),
    lambda1: new Float64Array(B),
    lambda2: new Float64Array(B),
    instantiation_component: new Float64Array(B),
    finish_component: new Float64Array(B),
    task_component: new Float64Array(B),
  };
}

/** The five input columns of {@link rewardBatch}, as {@link allocateRewardBatch} gives them. */
export interface RewardBatchColumns {
  /** Sub-agents launched per episode. */
  readonly numSubagents: Float32Array | Float64Array;
  /** Assigned subtasks per episode (leave it out of the input to default to numSubagents). */
  readonly assignedSubtasks: Float32Array | Float64Array;
  /** Completed subtasks per episode (leave it out of the input to default to assigned). */
  readonly completedSubtasks: Float32Array | Float64Array;
  /** r_perf per episode. */
  readonly rPerf: Float32Array | Float64Array;
  /** Training step per episode. */
  readonly trainingStep: Float32Array | Float64Array;
}

/**
 * Input columns and outputs of {@link rewardBatch} for B episodes together in one WebAssembly
 * memory, so that the SIMD kernel reads the inputs and writes the outputs where they are, with
 * nothing copied: the fastest way to call it on large batches. The columns are zeros, to be
 * filled; pass the ones you use (all, or a subset whose defaults suit you). Where the kernel
 * does not run, ordinary typed arrays.
 *
 * @param size - B, the number of episodes
 * @param precision - the columns' type: `float64` (default; holds any number exactly) or
 *   `float32` (half the memory traffic, for values that fit, e.g. counts and steps below 2^24)
 * @param kernel - as `kernel` in {@link RewardBatchInput}: `js` gives ordinary arrays
 *
 * @example
 * ```ts
 * const launched = new Float32Array(1_000_000).fill(4); // sub-agents launched per episode
 * const scores = new Float32Array(1_000_000).fill(0.5); // r_perf per episode
 * const steps = new Float32Array(1_000_000).fill(5000); // training step per episode
 * const { input, out } = allocateRewardBatch(1_000_000, 'float32');
 * input.numSubagents.set(launched);
 * input.rPerf.set(scores);
 * input.trainingStep.set(steps);
 * rewardBatch({ numSubagents: input.numSubagents, rPerf: input.rPerf, trainingStep: input.trainingStep }, {}, out);
 * out.total_reward[0]; // 0.552 = 0.05·0.04 + 0.05·1 + 0.5
 * ```
 */
export function allocateRewardBatch(
  size: number,
  precision: 'float32' | 'float64' = 'float64',
  kernel?: BatchKernel,
): { readonly input: RewardBatchColumns; readonly out: RewardBatchOutput } {
  const B = requireCount(size, 'size');
  if (precision !== 'float32' && precision !== 'float64') throw new ParlInputError('precision', precision, "'float32' or 'float64'");
  const Column = precision === 'float32' ? Float32Array : Float64Array;
  if (B > 0 && resolveBatchKernel(kernel) === 'wasm') {
    const owned = layOut(0, [...OUTPUT_ORDER.map(() => B * 8), ...INPUT_ORDER.map(() => B * Column.BYTES_PER_ELEMENT)]);
    // 256 spare bytes: a call lays out (empty) regions for inputs from `base` on
    const arena = createArena(owned.end + 256, owned.end);
    if (arena !== undefined) {
      const buffer = arena.memory.buffer;
      const output = (i: number): Float64Array => new Float64Array(buffer, owned.offsets[i], B);
      const column = (i: number): Float32Array | Float64Array => new Column(buffer, owned.offsets[OUTPUT_ORDER.length + i], B);
      return {
        input: { numSubagents: column(0), assignedSubtasks: column(1), completedSubtasks: column(2), rPerf: column(3), trainingStep: column(4) },
        out: outputsOf(output),
      };
    }
  }
  const column = (): Float32Array | Float64Array => new Column(B);
  return {
    input: { numSubagents: column(), assignedSubtasks: column(), completedSubtasks: column(), rPerf: column(), trainingStep: column() },
    out: allocateRewardBatchOutput(B, 'js'),
  };
}

/** The nine outputs, each from `view(i)` in the kernel's order. */
function outputsOf(view: (i: number) => Float64Array): RewardBatchOutput {
  return {
    total_reward: view(0),
    r_parallel: view(1),
    r_finish: view(2),
    r_perf: view(3),
    lambda1: view(4),
    lambda2: view(5),
    instantiation_component: view(6),
    finish_component: view(7),
    task_component: view(8),
  };
}

/** A schedule as the kernel computes it: kind 0 constant (`from`), 1 linear, 2 the same as λ1. */
interface KernelSchedule {
  readonly kind: 0 | 1 | 2;
  readonly from: number;
  readonly to: number;
  readonly steps: number;
}

/**
 * The kernel's form of a schedule made by `parseSchedule` (whose behaviour its spec fixes) of
 * kind linear or constant; undefined for any other schedule, which JavaScript evaluates.
 */
function kernelSchedule(schedule: Schedule): KernelSchedule | undefined {
  if (!kernelForms.has(schedule)) kernelForms.set(schedule, kernelScheduleOf(schedule));
  return kernelForms.get(schedule);
}

/** {@link kernelSchedule}'s answers by schedule (a parsed schedule never changes). */
const kernelForms = new WeakMap<Schedule, KernelSchedule | undefined>();

function kernelScheduleOf(schedule: Schedule): KernelSchedule | undefined {
  let rebuilt: Schedule;
  try {
    rebuilt = parseSchedule(schedule.spec);
  } catch {
    return undefined;
  }
  if (!sameSchedule(schedule, rebuilt)) return undefined;
  const spec = rebuilt.spec;
  if (spec.kind === 'constant') return { kind: 0, from: spec.value, to: 0, steps: 1 };
  if (spec.kind === 'linear') return { kind: 1, from: spec.from, to: spec.to, steps: spec.steps };
  return undefined;
}

/** True for the arrays the kernel reads directly. */
function isFloatArray(arr: NumericArray | undefined): arr is Float32Array | Float64Array {
  return arr instanceof Float32Array || arr instanceof Float64Array;
}

/**
 * Run the WebAssembly kernel for `size` episodes whose lengths were checked, writing every field
 * of `out`, or total_reward alone when `out` is one Float64Array. False when it does not apply
 * (the log r_parallel, fewer than two episodes, an input that is not a Float32Array or
 * Float64Array, no memory for it) or an input is invalid: the caller then runs the JavaScript
 * kernel, which gives the same results or throws the error for the first invalid input.
 */
export function rewardWasm(size: number, input: RewardBatchInput, cfg: ResolvedRewardConfig, out: RewardBatchOutput | Float64Array): boolean {
  if (cfg.parallelShape !== 'linear' || size < 2) return false;
  const perEpisodeSteps = input.trainingStep !== undefined && cfg.step === undefined;
  const given = [input.numSubagents, input.assignedSubtasks, input.completedSubtasks, input.rPerf, perEpisodeSteps ? input.trainingStep : undefined];
  const arrays: (Float32Array | Float64Array | undefined)[] = [];
  for (const arr of given) {
    if (arr !== undefined && !isFloatArray(arr)) return false;
    arrays.push(arr);
  }

  // λ: constants at a shared step; else linear or constant schedules in the kernel; else
  // (other kinds) JavaScript's atMany into the λ outputs, which the kernel then reads.
  let lambdaMode = 2;
  let first: KernelSchedule = { kind: 0, from: 0, to: 0, steps: 1 };
  let second: KernelSchedule = first;
  if (!perEpisodeSteps) {
    const s = cfg.step ?? 0;
    first = { kind: 0, from: cfg.lambda1.at(s), to: 0, steps: 1 };
    second = { kind: 0, from: cfg.lambda2.at(s), to: 0, steps: 1 };
  } else {
    const one = kernelSchedule(cfg.lambda1);
    const two = sameSchedule(cfg.lambda1, cfg.lambda2) ? { kind: 2 as const, from: 0, to: 0, steps: 1 } : kernelSchedule(cfg.lambda2);
    if (one !== undefined && two !== undefined) {
      lambdaMode = 1;
      first = one;
      second = two;
    } else {
      lambdaMode = 0;
    }
  }

  // Where the outputs live: in place when all nine (or the total alone) are views of one arena
  // with room for the inputs; else in the scratch arena, copied out at the end. With the total
  // alone, λ1 and λ2 still need room when JavaScript computes them for the kernel to read.
  const totalOnly = out instanceof Float64Array;
  const lambdasRead = lambdaMode === 0 ? [size * 8, size * 8] : [];
  const home = arenaOf(totalOnly ? out : out.total_reward);
  const inPlace = home !== undefined && (totalOnly || OUTPUT_ORDER.every((key) => arenaOf(out[key]) === home));
  let arena: Arena | undefined;
  let outAt: number[] = [];
  let inAt: number[] = [];
  if (home !== undefined && inPlace) {
    // room for the inputs that are not in this arena already
    const inputs = arrays.map((arr) => (arr === undefined || arenaOf(arr) === home ? 0 : arr.byteLength));
    const plan = layOut(home.base, totalOnly ? [...lambdasRead, ...inputs] : inputs);
    if (plan.end <= home.memory.buffer.byteLength) {
      arena = home;
      if (totalOnly) {
        const [lambda1At = 0, lambda2At = 0] = lambdaMode === 0 ? plan.offsets : [];
        outAt = [out.byteOffset, 0, 0, 0, lambda1At, lambda2At, 0, 0, 0];
        inAt = plan.offsets.slice(lambdasRead.length);
      } else {
        outAt = OUTPUT_ORDER.map((key) => out[key].byteOffset);
        inAt = plan.offsets;
      }
    }
  }
  if (arena === undefined) {
    const written = (i: number): boolean => !totalOnly || i === 0 || (lambdaMode === 0 && (i === 4 || i === 5));
    const plan = layOut(0, [...OUTPUT_ORDER.map((_, i) => (written(i) ? size * 8 : 0)), ...arrays.map((arr) => (arr === undefined ? 0 : arr.byteLength))]);
    arena = scratchArena(plan.end);
    if (arena === undefined) return false;
    outAt = plan.offsets.slice(0, OUTPUT_ORDER.length);
    inAt = plan.offsets.slice(OUTPUT_ORDER.length);
  }
  const memory = arena.memory.buffer;

  // Inputs: in place when they are views of this arena, else copied (same type, a memcpy).
  const pointers: number[] = [];
  let kinds = 0;
  arrays.forEach((arr, i) => {
    if (arr === undefined) {
      pointers.push(0);
      return;
    }
    if (arr instanceof Float32Array) kinds |= 1 << i;
    if (arenaOf(arr) === arena && arr.buffer === memory) {
      pointers.push(arr.byteOffset);
    } else {
      const at = inAt[i] as number;
      if (arr instanceof Float32Array) new Float32Array(memory, at, size).set(arr);
      else new Float64Array(memory, at, size).set(arr);
      pointers.push(at);
    }
  });
  // assigned defaults to numSubagents, completed to assigned: the same array, read again
  if (arrays[1] === undefined) {
    pointers[1] = pointers[0] as number;
    kinds |= (kinds & 1) << 1;
  }
  if (arrays[2] === undefined) {
    pointers[2] = pointers[1] as number;
    kinds |= ((kinds >> 1) & 1) << 2;
  }

  if (lambdaMode === 0) {
    const steps = input.trainingStep as NumericArray;
    const lambda1 = new Float64Array(memory, outAt[4], size);
    const lambda2 = new Float64Array(memory, outAt[5], size);
    try {
      cfg.lambda1.atMany(steps, lambda1);
      if (sameSchedule(cfg.lambda1, cfg.lambda2)) lambda2.set(lambda1);
      else cfg.lambda2.atMany(steps, lambda2);
    } catch {
      return false;
    }
  }

  const bad = arena.kernels.reward(
    size, ...pointers, kinds, cfg.maxSubagents, lambdaMode,
    first.kind, first.from, first.to, first.steps,
    second.kind, second.from, second.to, second.steps,
    ...outAt, totalOnly ? 1 : 0,
  );
  if (bad >= 0) return false;
  if (!inPlace || arena !== home) {
    if (totalOnly) out.set(new Float64Array(memory, outAt[0], size));
    else OUTPUT_ORDER.forEach((key, i) => out[key].set(new Float64Array(memory, outAt[i], size)));
  }
  return true;
}
