/**
 * The PARL reward for B episodes at once, over structure-of-arrays typed arrays: every field
 * ({@link rewardBatch}) or the total alone ({@link rewardTotalBatch}).
 *
 * No per-episode object is allocated: the hot loop reads the input arrays and writes the output
 * arrays. Results equal {@link computeReward} on the same episodes one at a time, bit for bit.
 * Float32Array and Float64Array inputs run on a WebAssembly SIMD kernel where the runtime has
 * one (reward-wasm.ts), with the same results.
 *
 * @module
 */
import { ParlInputError } from '../errors.js';
import { resolveRewardConfig, type RewardConfig, type ResolvedRewardConfig } from '../reward.js';
import { sameSchedule } from '../schedules.js';
import { batchKernelFor } from './batch-kernel.js';
import { REWARD_BATCH_FIELDS } from './batch-types.js';

export { REWARD_BATCH_FIELDS };
import type { NumericArray, RewardBatchInput, RewardBatchOutput } from './batch-types.js';
import { allocateRewardBatchOutput, rewardWasm } from './reward-wasm.js';


/** Under this many episodes, `auto` runs the JavaScript kernel (faster there: measured in bench/). */
const AUTO_WASM_MIN_EPISODES = 512;

function checkLength(name: string, arr: NumericArray | undefined, size: number): void {
  if (arr !== undefined && arr.length !== size) {
    throw new ParlInputError(`${name}.length`, arr.length, `${size} (the length of numSubagents)`);
  }
}

/**
 * The spec §3 reward for B episodes, every field of {@link computeReward}'s breakdown (the
 * instantiation, finish and task components λ1·r_parallel, λ2·r_finish and r_perf included).
 *
 * @param input - structure-of-arrays inputs of length B
 * @param config - reward options (as for {@link computeReward}); `budget` does not apply here
 * @param out - preallocated outputs (see {@link allocateRewardBatchOutput}), reused when given
 * @throws {@link ParlInputError} naming the array and index of a bad value, e.g. `rPerf[12]`
 *
 * @example
 * ```ts
 * const out = rewardBatch({
 *   numSubagents: [0, 25, 100],
 *   rPerf: [0.5, 0.8, 1],
 *   trainingStep: [0, 5000, 10000],
 * });
 * // λ = 0.1, 0.05, 0; r_parallel = 0, 0.25, 1; r_finish = 0 (nothing assigned), 1, 1
 * out.total_reward; // Float64Array [0.5, 0.05·0.25 + 0.05·1 + 0.8 ≈ 0.8625, 1]
 * ```
 */
export function rewardBatch(
  input: RewardBatchInput,
  config: RewardConfig | ResolvedRewardConfig = {},
  out?: RewardBatchOutput,
): RewardBatchOutput {
  const cfg = resolveRewardConfig(config);
  const n = input.numSubagents;
  const size = n.length;
  checkLength('assignedSubtasks', input.assignedSubtasks, size);
  checkLength('completedSubtasks', input.completedSubtasks, size);
  checkLength('rPerf', input.rPerf, size);
  checkLength('trainingStep', input.trainingStep, size);
  // Without `out`, ordinary arrays (a WebAssembly memory per call would be wasteful); the
  // WebAssembly kernel then computes in its scratch memory and copies the results out.
  const result = out ?? allocateRewardBatchOutput(size, 'js');
  for (const key of REWARD_BATCH_FIELDS) {
    if (result[key].length < size) throw new ParlInputError(`out.${key}.length`, result[key].length, `at least ${size}`);
  }
  // The WebAssembly kernel declines (returns false) where it does not apply or an input is
  // invalid; the JavaScript kernel then computes the same results or throws the error naming it.
  if (batchKernelFor(input.kernel, size, AUTO_WASM_MIN_EPISODES) === 'wasm' && rewardWasm(size, input, cfg, result)) return result;
  const max = cfg.maxSubagents;
  const logShape = cfg.parallelShape === 'log';
  const { lambda1, lambda2 } = result;
  const steps = input.trainingStep;

  // λ(s): one evaluation when every episode shares a step (config.step overrides the
  // per-episode steps, as it overrides `training_step` in computeReward), else per episode;
  // λ2 is copied from λ1 when both follow the same schedule (the default).
  if (steps === undefined || cfg.step !== undefined) {
    const s = cfg.step ?? 0;
    lambda1.fill(cfg.lambda1.at(s), 0, size);
    lambda2.fill(cfg.lambda2.at(s), 0, size);
  } else {
    try {
      cfg.lambda1.atMany(steps, lambda1);
      if (sameSchedule(cfg.lambda1, cfg.lambda2)) lambda2.set(lambda1.subarray(0, size));
      else cfg.lambda2.atMany(steps, lambda2);
    } catch (err) {
      if (err instanceof ParlInputError) {
        throw new ParlInputError(err.field.replace(/^steps\[/, 'trainingStep['), err.value, err.expected);
      }
      throw err;
    }
  }

  // Defaults by aliasing (assigned = numSubagents, completed = assigned) keep the loop free of
  // per-element branches on which arrays were given.
  const assigned = input.assignedSubtasks ?? n;
  const completed = input.completedSubtasks ?? assigned;
  rewardKernel(size, n, assigned, completed, input.rPerf, max, logShape ? Math.log1p(max) : 0, logShape, result);
  return result;
}

/**
 * The total reward alone for B episodes: {@link rewardBatch}'s `total_reward`, bit for bit,
 * without the other eight fields. On large batches this is several times faster, the WebAssembly
 * kernel writing one float64 array instead of nine (what a trainer that reads only the reward
 * needs). Pass `allocateRewardBatch(B, 'float32').out.total_reward` as `out` (with that call's
 * input columns) to have nothing copied.
 *
 * @param input - structure-of-arrays inputs of length B
 * @param config - reward options (as for {@link computeReward}); `budget` does not apply here
 * @param out - where to write the B totals (a new Float64Array when not given)
 * @throws {@link ParlInputError} naming the array and index of a bad value, e.g. `rPerf[12]`
 *
 * @example
 * ```ts
 * rewardTotalBatch({ numSubagents: [0, 25, 100], rPerf: [0.5, 0.8, 1], trainingStep: [0, 5000, 10000] });
 * // Float64Array [0.5, 0.05·0.25 + 0.05·1 + 0.8 ≈ 0.8625, 1], as rewardBatch(…).total_reward
 * ```
 */
export function rewardTotalBatch(
  input: RewardBatchInput,
  config: RewardConfig | ResolvedRewardConfig = {},
  out?: Float64Array,
): Float64Array {
  const cfg = resolveRewardConfig(config);
  const size = input.numSubagents.length;
  checkLength('assignedSubtasks', input.assignedSubtasks, size);
  checkLength('completedSubtasks', input.completedSubtasks, size);
  checkLength('rPerf', input.rPerf, size);
  checkLength('trainingStep', input.trainingStep, size);
  const result = out ?? new Float64Array(size);
  if (result.length < size) throw new ParlInputError('out.length', result.length, `at least ${size}`);
  if (batchKernelFor(input.kernel, size, AUTO_WASM_MIN_EPISODES) === 'wasm' && rewardWasm(size, input, cfg, result)) return result;
  // Elsewhere, the JavaScript kernel, a slice of at most BREAKDOWN_SLICE episodes at a time into
  // one breakdown kept between calls, each slice's totals copied out: no allocation per batch
  // beyond views. A bad input is reported as rewardBatch reports it (bad steps first), by a run
  // over the whole batch.
  const breakdown = keptBreakdown(Math.min(size, BREAKDOWN_SLICE));
  if (size <= BREAKDOWN_SLICE) {
    result.set(rewardBatch({ ...input, kernel: 'js' }, cfg, breakdown).total_reward.subarray(0, size));
    return result;
  }
  try {
    for (let start = 0; start < size; start += BREAKDOWN_SLICE) {
      const end = Math.min(size, start + BREAKDOWN_SLICE);
      rewardBatch(sliceOfInput(input, start, end), cfg, breakdown);
      result.set(breakdown.total_reward.subarray(0, end - start), start);
    }
  } catch (err) {
    if (err instanceof ParlInputError) rewardBatch({ ...input, kernel: 'js' }, cfg);
    throw err;
  }
  return result;
}

/** Episodes per slice of {@link rewardTotalBatch}'s JavaScript path (its breakdown: 4.5 MiB at most). */
const BREAKDOWN_SLICE = 65_536;
let kept: RewardBatchOutput | undefined;

/** The breakdown {@link rewardTotalBatch}'s JavaScript path writes into, for at least `size` episodes, kept between calls. */
function keptBreakdown(size: number): RewardBatchOutput {
  if (kept === undefined || kept.total_reward.length < size) kept = allocateRewardBatchOutput(size, 'js');
  return kept;
}

/** Episodes `start` to `end` of a batch's input, for the JavaScript kernel (views of typed arrays). */
function sliceOfInput(input: RewardBatchInput, start: number, end: number): RewardBatchInput {
  const part = (arr: NumericArray): NumericArray => (ArrayBuffer.isView(arr) ? arr.subarray(start, end) : arr.slice(start, end));
  return {
    numSubagents: part(input.numSubagents),
    ...(input.assignedSubtasks === undefined ? {} : { assignedSubtasks: part(input.assignedSubtasks) }),
    ...(input.completedSubtasks === undefined ? {} : { completedSubtasks: part(input.completedSubtasks) }),
    rPerf: part(input.rPerf),
    ...(input.trainingStep === undefined ? {} : { trainingStep: part(input.trainingStep) }),
    kernel: 'js',
  };
}

/**
 * The per-episode loop of {@link rewardBatch}: validates each input and writes r_parallel,
 * r_finish, r_perf, the three components and total_reward, with the same operations in the same order as
 * {@link computeReward}, so that results agree bit for bit. λ1, λ2 are already in `out`.
 */
function rewardKernel(
  size: number,
  n: NumericArray,
  assigned: NumericArray,
  completed: NumericArray,
  perf: NumericArray,
  max: number,
  logMax: number,
  logShape: boolean,
  out: RewardBatchOutput,
): void {
  const { total_reward, r_parallel, r_finish, r_perf, lambda1, lambda2, instantiation_component, finish_component, task_component } = out;
  for (let i = 0; i < size; i++) {
    const ni = n[i] as number;
    const ai = assigned[i] as number;
    const ci = completed[i] as number;
    const pi = perf[i] as number;
    // typeof is free on typed arrays (V8 knows their elements are numbers) and keeps a plain
    // array's strings from being coerced.
    if (
      !(ni >= 0 && ni < Infinity && ai >= 0 && ai < Infinity && ci >= 0 && ci <= ai && pi > -Infinity && pi < Infinity) ||
      typeof ni !== 'number' ||
      typeof ai !== 'number' ||
      typeof ci !== 'number' ||
      typeof pi !== 'number'
    ) {
      throw badEpisode(i, ni, ai, ci, pi);
    }
    let rp = logShape ? Math.log1p(ni) / logMax : ni / max;
    rp = rp > 1 ? 1 : rp;
    const rf = ai > 0 ? ci / ai : 0;
    // The same operations, in the same order, as combineReward.
    const instantiation = (lambda1[i] as number) * rp;
    const finish = (lambda2[i] as number) * rf;
    r_parallel[i] = rp;
    r_finish[i] = rf;
    r_perf[i] = pi;
    instantiation_component[i] = instantiation;
    finish_component[i] = finish;
    task_component[i] = pi;
    total_reward[i] = instantiation + finish + pi;
  }
}

/** The error for episode i, naming the first of its inputs that is wrong. */
function badEpisode(i: number, ni: number, ai: number, ci: number, pi: number): ParlInputError {
  if (typeof ni !== 'number' || !(ni >= 0 && ni < Infinity)) return new ParlInputError(`numSubagents[${i}]`, ni, 'a finite number ≥ 0');
  if (typeof ai !== 'number' || !(ai >= 0 && ai < Infinity)) return new ParlInputError(`assignedSubtasks[${i}]`, ai, 'a finite number ≥ 0');
  if (typeof ci !== 'number' || !(ci >= 0 && ci <= ai)) {
    return new ParlInputError(`completedSubtasks[${i}]`, ci, `a finite number between 0 and assignedSubtasks[${i}] = ${ai}`);
  }
  return new ParlInputError(`rPerf[${i}]`, pi, 'a finite number');
}
