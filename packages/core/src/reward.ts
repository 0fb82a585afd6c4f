/**
 * The PARL reward (spec §3): r_PARL = λ1(s)·r_parallel + λ2(s)·r_finish + r_perf, each term on
 * its own and combined with every breakdown field.
 *
 * @module
 */
import { applyBudget, parseBudgetMode, type BudgetMode } from './budget.js';
import { ParlInputError, requireNonNegative, requireOneOf, requirePositive } from './errors.js';
import { finishRate } from './finish-rate.js';
import { isValidatedEpisode, validateRecord, type EpisodeRecord, type NormalizedEpisode, type PerfSource } from './records.js';
import { parseSchedule, type Schedule, type ScheduleInput } from './schedules.js';

/** Shape of the instantiation reward: `linear` (default) n/max, or `log` ln(1+n)/ln(1+max). */
export type ParallelShape = 'linear' | 'log';

/** The parallel shapes, as accepted on the command line and in configs. */
export const PARALLEL_SHAPES: readonly ParallelShape[] = ['linear', 'log'];

/** Defaults of the reference package `open-parl` [ref]. */
export const REWARD_DEFAULTS = {
  /** max_subagents for r_parallel. */
  maxSubagents: 100,
  /** λ1, λ2 start value. */
  lambdaInit: 0.1,
  /** λ1, λ2 end value. */
  lambdaFinal: 0,
  /** Length of the default linear λ schedules. */
  totalTrainingSteps: 10000,
  /** Shape of r_parallel. */
  parallelShape: 'linear' as ParallelShape,
} as const;

/** Options of the reward; every field has the reference package's default. */
export interface RewardConfig {
  /** max_subagents of r_parallel (default 100). */
  readonly maxSubagents?: number;
  /** λ1 schedule, short or JSON form or parsed (default linear 0.1 → 0 over totalTrainingSteps). */
  readonly lambda1?: ScheduleInput;
  /** λ2 schedule, short or JSON form or parsed (default linear 0.1 → 0 over totalTrainingSteps). */
  readonly lambda2?: ScheduleInput;
  /** Length of the default linear λ schedules (default 10000); ignored for schedules given explicitly. */
  readonly totalTrainingSteps?: number;
  /** Shape of r_parallel (default `linear`). */
  readonly parallelShape?: ParallelShape;
  /** Training step to use for every record, overriding `training_step`. */
  readonly step?: number;
  /** Critical-step budget K; an episode whose stages exceed it is cut (spec §2). */
  readonly budget?: number;
  /** What a cut means for r_perf: `fail` (r_perf = 0, default) or `truncate` (keep the caller's score). */
  readonly onBudget?: BudgetMode;
  /**
   * Reject a record field that looks like a misspelt spec field (`num_subagent`: did you mean
   * `num_subagents`?) instead of keeping it as an extra field (default false). See
   * {@link RecordValidationOptions}.
   */
  readonly strict?: boolean;
}

/** A {@link RewardConfig} with every default filled in and schedules parsed. */
export interface ResolvedRewardConfig {
  /** max_subagents. */
  readonly maxSubagents: number;
  /** λ1. */
  readonly lambda1: Schedule;
  /** λ2. */
  readonly lambda2: Schedule;
  /** Length of the default schedules. */
  readonly totalTrainingSteps: number;
  /** Shape of r_parallel. */
  readonly parallelShape: ParallelShape;
  /** Step override, if any. */
  readonly step: number | undefined;
  /** Budget K, if any. */
  readonly budget: number | undefined;
  /** Budget mode. */
  readonly onBudget: BudgetMode;
  /** Whether records are validated strictly (likely misspelt fields rejected). */
  readonly strict: boolean;
}

/** The reward of one episode under the spec §3 JSON field names. */
export interface RewardBreakdown {
  /** λ1·r_parallel + λ2·r_finish + r_perf; equals the sum of the three components. */
  readonly total_reward: number;
  /** Instantiation reward. */
  readonly r_parallel: number;
  /** Sub-agent finish rate. */
  readonly r_finish: number;
  /** Task outcome. */
  readonly r_perf: number;
  /** λ1(s). */
  readonly lambda1: number;
  /** λ2(s). */
  readonly lambda2: number;
  /** λ1·r_parallel. */
  readonly instantiation_component: number;
  /** λ2·r_finish. */
  readonly finish_component: number;
  /** r_perf. */
  readonly task_component: number;
}

/**
 * Fill in defaults and parse schedules once, so that many records can share the work.
 *
 * @throws {@link ParlInputError} naming the bad option (`maxSubagents`, `lambda1.steps`, …)
 */
export function resolveRewardConfig(config: RewardConfig | ResolvedRewardConfig = {}): ResolvedRewardConfig {
  const totalTrainingSteps =
    config.totalTrainingSteps === undefined
      ? REWARD_DEFAULTS.totalTrainingSteps
      : requirePositive(config.totalTrainingSteps, 'totalTrainingSteps');
  const defaultLambda = (): ScheduleInput => ({
    kind: 'linear',
    from: REWARD_DEFAULTS.lambdaInit,
    to: REWARD_DEFAULTS.lambdaFinal,
    steps: totalTrainingSteps,
  });
  if (isResolved(config)) return config;
  const resolved: ResolvedRewardConfig = {
    maxSubagents: config.maxSubagents === undefined ? REWARD_DEFAULTS.maxSubagents : requirePositive(config.maxSubagents, 'maxSubagents'),
    lambda1: parseSchedule(config.lambda1 ?? defaultLambda(), 'lambda1'),
    lambda2: parseSchedule(config.lambda2 ?? defaultLambda(), 'lambda2'),
    totalTrainingSteps,
    parallelShape: config.parallelShape === undefined ? REWARD_DEFAULTS.parallelShape : requireOneOf(config.parallelShape, 'parallelShape', PARALLEL_SHAPES),
    step: config.step === undefined ? undefined : requireNonNegative(config.step, 'step'),
    budget: config.budget === undefined ? undefined : requireNonNegative(config.budget, 'budget'),
    onBudget: parseBudgetMode(config.onBudget, 'onBudget'),
    strict: readStrict(config.strict),
  };
  resolvedConfigs.add(resolved);
  return resolved;
}

function readStrict(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new ParlInputError('strict', value, 'a boolean');
  return value;
}

/** Configs made by {@link resolveRewardConfig}: only those skip validation. */
const resolvedConfigs = new WeakSet<object>();

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * Instantiation reward r_parallel: clamp(n / max, 0, 1) (`linear`, default) or
 * clamp(ln(1+n) / ln(1+max), 0, 1) (`log`).
 *
 * @param numSubagents - sub-agents launched (finite, ≥ 0)
 * @param maxSubagents - saturation point (finite, > 0; default 100)
 * @param shape - `linear` or `log`
 */
export function rParallel(numSubagents: number, maxSubagents: number = REWARD_DEFAULTS.maxSubagents, shape: ParallelShape = 'linear'): number {
  requireNonNegative(numSubagents, 'num_subagents');
  requirePositive(maxSubagents, 'maxSubagents');
  return rParallelUnchecked(numSubagents, maxSubagents, shape);
}

/** r_parallel without validation, for the batched kernels. @internal */
export function rParallelUnchecked(n: number, max: number, shape: ParallelShape): number {
  return shape === 'log' ? clamp01(Math.log1p(n) / Math.log1p(max)) : clamp01(n / max);
}

/**
 * Finish reward r_finish: completed / assigned when assigned > 0, else 0.
 *
 * @throws {@link ParlInputError} when completed > assigned, or either is negative or not finite
 */
export function rFinish(completedSubtasks: number, assignedSubtasks: number): number {
  // The one finish-rate definition (finish-rate.ts), 0 when nothing was assigned.
  return finishRate(completedSubtasks, assignedSubtasks) ?? 0;
}

/**
 * Task reward r_perf from the way a record gives it (spec §3): the value itself; success ×
 * quality clamped to [0, 1]; or clamp(mean(features) × success, 0, 1).
 *
 * @throws {@link ParlInputError} when the record gives no way to compute it
 */
export function rPerf(source: PerfSource): number {
  switch (source.kind) {
    case 'direct':
      return source.value;
    case 'success':
      return clamp01((source.success ? 1 : 0) * source.quality);
    case 'features': {
      let sum = 0;
      for (const f of source.features) sum += f;
      return clamp01(featureMean(sum, source.features) * (source.success ? 1 : 0));
    }
    case 'none':
      throw new ParlInputError('r_perf', undefined, 'given: r_perf, or success (with optional quality), or trajectory_features with success');
  }
}

/**
 * Combine the three terms with λ1, λ2 into the spec §3 breakdown. Pure arithmetic, no checks.
 */
export function combineReward(rParallelValue: number, rFinishValue: number, rPerfValue: number, lambda1: number, lambda2: number): RewardBreakdown {
  const instantiation = lambda1 * rParallelValue;
  const finish = lambda2 * rFinishValue;
  return {
    total_reward: instantiation + finish + rPerfValue,
    r_parallel: rParallelValue,
    r_finish: rFinishValue,
    r_perf: rPerfValue,
    lambda1,
    lambda2,
    instantiation_component: instantiation,
    finish_component: finish,
    task_component: rPerfValue,
  };
}

/**
 * The PARL reward of one spec §5 record, with every spec §3 field.
 *
 * The training step is `config.step`, else the record's `training_step`, else 0. With a
 * `budget`, an episode whose stages exceed it gets r_perf = 0 under `fail`; under `truncate`
 * the record's score stands (it is the caller's score of what finished before the cut).
 *
 * The record is typed, so a misspelt field in an object literal is a compile error; a value of
 * unknown shape (parsed JSON) goes through {@link validateRecord} first, whose result is accepted
 * here as is. Values are checked at run time either way.
 *
 * @param record - a spec §5 record (validated here) or one already validated
 * @param config - options or a resolved config; defaults are those of `open-parl`; `strict`
 *   rejects a field that looks like a misspelt spec field
 * @throws {@link ParlInputError} naming the field path, value and expectation
 *
 * @example
 * ```ts
 * computeReward({ num_subagents: 25, completed_subtasks: 20, assigned_subtasks: 25, success: true, quality: 0.8, training_step: 5000 });
 * // lambda1 = lambda2 = 0.05, r_parallel = 0.25, r_finish = 0.8, r_perf = 0.8,
 * // total_reward = 0.05·0.25 + 0.05·0.8 + 0.8 = 0.8525
 * ```
 */
export function computeReward(record: EpisodeRecord | NormalizedEpisode, config: RewardConfig | ResolvedRewardConfig = {}): RewardBreakdown {
  const resolved = isResolved(config) ? config : resolveRewardConfig(config);
  const episode = isNormalized(record) ? record : validateRecord(record, undefined, { strict: resolved.strict });
  return rewardOfEpisode(episode, resolved);
}

/** {@link computeReward} for a validated episode and a resolved config. */
export function rewardOfEpisode(episode: NormalizedEpisode, config: ResolvedRewardConfig): RewardBreakdown {
  const step = config.step ?? episode.trainingStep ?? 0;
  let perf = rPerf(episode.perf);
  if (config.budget !== undefined && config.onBudget === 'fail' && episode.stages !== undefined) {
    if (!applyBudget(episode.stages, config.budget).within_budget) perf = 0;
  }
  return combineReward(
    rParallelUnchecked(episode.numSubagents, config.maxSubagents, config.parallelShape),
    episode.assigned > 0 ? episode.completed / episode.assigned : 0,
    perf,
    config.lambda1.at(step),
    config.lambda2.at(step),
  );
}

function isResolved(config: RewardConfig | ResolvedRewardConfig): config is ResolvedRewardConfig {
  return resolvedConfigs.has(config);
}

function isNormalized(record: unknown): record is NormalizedEpisode {
  return typeof record === 'object' && record !== null && isValidatedEpisode(record);
}

/**
 * mean(features) from their sum; when the sum overflows a double (features near ±1.8e308), the
 * mean is taken as Σ f/n instead, which cannot overflow.
 */
function featureMean(sum: number, features: readonly number[]): number {
  const n = features.length;
  if (Number.isFinite(sum)) return sum / n;
  let scaled = 0;
  for (const f of features) scaled += f / n;
  return scaled;
}
