/**
 * Labelling a raw spec §5 record with the computed fields of spec §2 and §3, under their spec
 * names, keeping every field the record had (the CLI's `reward` and `critical-steps` are thin
 * loops over these).
 *
 * @module
 */
import { applyBudget, parseBudgetMode, type BudgetMode } from './budget.js';
import { criticalStepsOfStages, type CriticalStepsResult } from './critical-steps.js';
import { ParlInputError, requireNonNegative } from './errors.js';
import { validateRecord, type RecordValidationOptions } from './records.js';
import { resolveRewardConfig, rewardOfEpisode, type RewardBreakdown, type RewardConfig, type ResolvedRewardConfig } from './reward.js';

/** A record with the spec §3 reward fields added. */
export type RewardLabelledRecord = Record<string, unknown> & RewardBreakdown;

/** The fields `labelReward` adds: the spec §3 reward fields, plus the spec §2 fields when the record has `stages`. */
export type RewardLabelFields = RewardBreakdown & Partial<CriticalStepsResult>;

/**
 * The record with the spec §3 fields added (and, when it has `stages`, the spec §2 fields).
 * Fields already present under those names are overwritten; every other field is kept.
 *
 * @param record - an untrusted spec §5 record
 * @param config - reward options
 * @param location - where the record came from (`line 17`), for error messages
 */
export function labelReward(
  record: unknown,
  config: RewardConfig | ResolvedRewardConfig = {},
  location?: string,
): RewardLabelledRecord {
  return withLabelFields(record as Record<string, unknown>, rewardLabelFields(record, config, location)) as RewardLabelledRecord;
}

/**
 * Only the fields {@link labelReward} adds to `record`, in the order it adds them (the spec §2
 * fields first when the record has `stages`, then the spec §3 fields), each one checked finite.
 * `labelReward(r)` is `withLabelFields(r, rewardLabelFields(r))`; a writer that keeps the record's
 * own text can append these instead of serialising the whole record again.
 *
 * @param record - an untrusted spec §5 record
 * @param config - reward options
 * @param location - where the record came from (`line 17`), for error messages
 * @throws {@link ParlInputError} for a bad record, or a computed field that is not finite
 *
 * @example
 * ```ts
 * rewardLabelFields({ r_perf: 0.5, num_subagents: 4 }).total_reward;
 * ```
 */
export function rewardLabelFields(record: unknown, config: RewardConfig | ResolvedRewardConfig = {}, location?: string): RewardLabelFields {
  const cfg = resolveRewardConfig(config);
  const episode = validateRecord(record, location, { strict: cfg.strict });
  let reward: RewardBreakdown;
  try {
    reward = rewardOfEpisode(episode, cfg);
  } catch (err) {
    // A record without r_perf passes validation (not every command needs it) but fails here:
    // name the record too.
    if (err instanceof ParlInputError && location !== undefined && err.location === undefined) throw err.at(location);
    throw err;
  }
  if (episode.stages === undefined) {
    requireFiniteResults(reward, location);
    return reward;
  }
  const structure = criticalStepsOfStages(episode.stages);
  requireFiniteResults(structure, location);
  requireFiniteResults(reward, location);
  // One object of a fixed shape, in the order the fields are added (spec §2, then spec §3).
  return {
    critical_steps: structure.critical_steps,
    total_steps: structure.total_steps,
    parallelism: structure.parallelism,
    num_stages: structure.num_stages,
    max_width: structure.max_width,
    mean_width: structure.mean_width,
    total_reward: reward.total_reward,
    r_parallel: reward.r_parallel,
    r_finish: reward.r_finish,
    r_perf: reward.r_perf,
    lambda1: reward.lambda1,
    lambda2: reward.lambda2,
    instantiation_component: reward.instantiation_component,
    finish_component: reward.finish_component,
    task_component: reward.task_component,
  };
}

/** Options of {@link labelCriticalSteps}. */
export interface CriticalStepsLabelOptions {
  /** Critical-step budget K. */
  readonly budget?: number;
  /** `fail` (default): fields of the whole episode, plus `within_budget`; `truncate`: fields of the stages that ran. */
  readonly onBudget?: BudgetMode;
  /** Reject a field that looks like a misspelt spec field (default false); see {@link RecordValidationOptions}. */
  readonly strict?: boolean;
}

/** A record with the spec §2 fields added. */
export type CriticalStepsLabelledRecord = Record<string, unknown> &
  Omit<CriticalStepsResult, 'mean_width'> & {
    /** Present with a budget: whether the episode fits in it. */
    readonly within_budget?: boolean;
    /** Present with a budget: the first stage cut (its index), or null when none is. */
    readonly budget_cut_stage?: number | null;
  };

/**
 * The record with the spec §2 fields added: `critical_steps`, `total_steps`, `parallelism`,
 * `num_stages`, `max_width`, plus `mean_width`. With a budget, `within_budget` and
 * `budget_cut_stage` are added too; under `truncate` the spec §2 fields describe only the
 * stages that finished before the cut.
 *
 * @throws {@link ParlInputError} when the record has no `stages` or a bad step
 */
export function labelCriticalSteps(record: unknown, options: CriticalStepsLabelOptions = {}, location?: string): CriticalStepsLabelledRecord {
  return withLabelFields(record as Record<string, unknown>, criticalStepsLabelFields(record, options, location)) as CriticalStepsLabelledRecord;
}

/** The fields `labelCriticalSteps` adds: the spec §2 fields, and the budget fields with a budget. */
export type CriticalStepsLabelFields = CriticalStepsResult & {
  /** Present with a budget: whether the episode fits in it. */
  readonly within_budget?: boolean;
  /** Present with a budget: the first stage cut (its index), or null when none is. */
  readonly budget_cut_stage?: number | null;
};

/**
 * Only the fields {@link labelCriticalSteps} adds to `record`, in its order, each one checked
 * finite: `labelCriticalSteps(r, o)` is `withLabelFields(r, criticalStepsLabelFields(r, o))`.
 *
 * @throws {@link ParlInputError} when the record has no `stages`, a bad step, or a sum that is not finite
 *
 * @example
 * ```ts
 * criticalStepsLabelFields({ stages: [{ main_steps: 1, sub_steps: [2, 3] }] }).critical_steps; // 4
 * ```
 */
export function criticalStepsLabelFields(record: unknown, options: CriticalStepsLabelOptions = {}, location?: string): CriticalStepsLabelFields {
  const episode = validateRecord(record, location, { strict: options.strict === true });
  if (episode.stages === undefined) {
    throw new ParlInputError('stages', undefined, 'an array of stages (needed for critical steps)', location);
  }
  const mode = parseBudgetMode(options.onBudget, 'onBudget');
  if (options.budget === undefined) {
    const fields = criticalStepsOfStages(episode.stages);
    requireFiniteResults(fields, location);
    return fields;
  }
  const cut = applyBudget(episode.stages, requireNonNegative(options.budget, 'budget'));
  const stages = mode === 'truncate' ? cut.stages_run : episode.stages;
  const fields = criticalStepsOfStages(stages);
  requireFiniteResults(fields, location);
  return Object.assign({}, fields, { within_budget: cut.within_budget, budget_cut_stage: cut.budget_cut_stage });
}

/**
 * Every computed number must be finite: a record whose steps or features overflow a double when
 * summed is an input error naming the field, never a `null` (JSON's rendering of ±Infinity/NaN).
 */
function requireFiniteResults(fields: object, location: string | undefined): void {
  for (const key in fields) {
    const value = (fields as Record<string, unknown>)[key];
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new ParlInputError(key, value, 'a finite number: the record\'s values overflow a double when combined', location);
    }
  }
}

/**
 * A new object with the record's fields, then the computed ones (a computed field already in the
 * record keeps its place and takes the computed value; the others follow in their order).
 * `Object.assign` is an order of magnitude faster than object spread on Node 20 for this shape;
 * a record with an own `__proto__` key (possible from JSON.parse) takes the spread, which defines
 * it as a plain field instead of setting the prototype.
 *
 * @param record - the record as read
 * @param fields - the fields computed for it ({@link rewardLabelFields}, {@link criticalStepsLabelFields})
 *
 * @example
 * ```ts
 * withLabelFields({ id: 1, r_perf: 0.5 }, rewardLabelFields({ id: 1, r_perf: 0.5 }));
 * ```
 */
export function withLabelFields(record: Readonly<Record<string, unknown>>, fields: object): Record<string, unknown> {
  if (Object.prototype.hasOwnProperty.call(record, '__proto__')) return { ...record, ...fields };
  return Object.assign({}, record, fields) as Record<string, unknown>;
}
