/**
 * What `parl reward` and `parl critical-steps` compute for one record, described as plain data
 * (the command and its flags) so that a worker thread can build the same labeller.
 *
 * @module
 */
import {
  criticalStepsLabelFields,
  parseSchedule,
  resolveRewardConfig,
  rewardLabelFields,
  type BudgetMode,
  type CriticalStepsLabelOptions,
  type ParallelShape,
  type RewardConfig,
} from '@parl/core';

/** The flags of `parl reward` that change the computed fields. */
export interface RewardLabelFlags {
  /** `--max-subagents`: saturation point of r_parallel (default 100). */
  readonly maxSubagents?: number;
  /** `--lambda1`: λ1 schedule, short or JSON form (default linear 0.1 → 0 over `--total-steps`). */
  readonly lambda1?: string;
  /** `--lambda2`: λ2 schedule, short or JSON form. */
  readonly lambda2?: string;
  /** `--total-steps`: length of the default λ schedules (default 10000). */
  readonly totalSteps?: number;
  /** `--step`: training step for every record, overriding `training_step`. */
  readonly step?: number;
  /** `--parallel-shape`: `linear` (default) or `log`. */
  readonly parallelShape?: ParallelShape;
  /** `--budget`: critical-step budget K. */
  readonly budget?: number;
  /** `--on-budget`: `fail` (r_perf = 0 when over budget, default) or `truncate`. */
  readonly onBudget?: BudgetMode;
}

/** A labelling command and the flags its computed fields depend on (structured-cloneable). */
export type LabelSpec =
  | { readonly command: 'reward'; readonly flags: RewardLabelFlags }
  | { readonly command: 'critical-steps'; readonly flags: CriticalStepsLabelOptions };

/** The fields computed for one record; throws {@link @parl/core!ParlInputError} for a bad one. */
export type LabelFieldsOf = (value: unknown, location: string) => Readonly<Record<string, unknown>>;

/** The core reward config the flags describe; schedules are parsed here so a bad one names its flag. */
export function rewardConfigOf(flags: RewardLabelFlags): RewardConfig {
  return {
    ...(flags.maxSubagents === undefined ? {} : { maxSubagents: flags.maxSubagents }),
    ...(flags.lambda1 === undefined ? {} : { lambda1: parseSchedule(flags.lambda1, '--lambda1') }),
    ...(flags.lambda2 === undefined ? {} : { lambda2: parseSchedule(flags.lambda2, '--lambda2') }),
    ...(flags.totalSteps === undefined ? {} : { totalTrainingSteps: flags.totalSteps }),
    ...(flags.step === undefined ? {} : { step: flags.step }),
    ...(flags.parallelShape === undefined ? {} : { parallelShape: flags.parallelShape }),
    ...(flags.budget === undefined ? {} : { budget: flags.budget }),
    ...(flags.onBudget === undefined ? {} : { onBudget: flags.onBudget }),
  };
}

/**
 * The function computing `spec`'s fields for one record (core `rewardLabelFields` or
 * `criticalStepsLabelFields`); a bad flag throws here, before any record is read.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad flag value
 */
export function labelFieldsOf(spec: LabelSpec): LabelFieldsOf {
  if (spec.command === 'reward') {
    const config = resolveRewardConfig(rewardConfigOf(spec.flags));
    return (value, location) => rewardLabelFields(value, config, location) as unknown as Readonly<Record<string, unknown>>;
  }
  const options = spec.flags;
  return (value, location) => criticalStepsLabelFields(value, options, location) as unknown as Readonly<Record<string, unknown>>;
}
