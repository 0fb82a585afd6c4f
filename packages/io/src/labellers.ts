/**
 * What the labelling engine computes for one record, described as plain data — the labelling and
 * its resolved config — so that a worker thread builds the same labeller. Workers receive the
 * config, never a command's flags: the flags (or an HTTP query) are turned into a core config by
 * their owner once, before any record is read.
 *
 * @module
 */
import {
  criticalStepsLabelFields,
  resolveRewardConfig,
  rewardLabelFields,
  type CriticalStepsLabelOptions,
  type ResolvedRewardConfig,
  type RewardConfig,
} from '@parl/core';

/**
 * A labelling and its config (structured-cloneable: schedules travel as their JSON form, see
 * {@link labelSpecOf}).
 */
export type LabelSpec =
  | { readonly command: 'reward'; readonly config: RewardConfig }
  | { readonly command: 'critical-steps'; readonly config: CriticalStepsLabelOptions };

/** The fields computed for one record; throws {@link @parl/core!ParlInputError} for a bad one. */
export type LabelFieldsOf = (value: unknown, location: string) => Readonly<Record<string, unknown>>;

/**
 * A reward config a thread can receive: every option resolved (defaults filled in, schedules
 * checked) and the schedules given as their JSON form (a parsed schedule holds functions, which
 * cannot be sent to a thread).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option
 *
 * @example
 * ```ts
 * sendableRewardConfig({ lambda1: 'linear:0.1:0:10000' }).lambda1; // { kind: 'linear', … }
 * ```
 */
export function sendableRewardConfig(config: RewardConfig | ResolvedRewardConfig): RewardConfig {
  const resolved = resolveRewardConfig(config);
  const { lambda1, lambda2, step, budget, ...rest } = resolved;
  return {
    ...rest,
    lambda1: lambda1.spec,
    lambda2: lambda2.spec,
    ...(step === undefined ? {} : { step }),
    ...(budget === undefined ? {} : { budget }),
  };
}

/**
 * The spec of a labelling with its config made sendable ({@link sendableRewardConfig}); a bad
 * option throws here, before any record is read.
 *
 * @example
 * ```ts
 * labelSpecOf({ command: 'reward', config: { step: 5000 } });
 * ```
 */
export function labelSpecOf(spec: LabelSpec): LabelSpec {
  return spec.command === 'reward' ? { command: 'reward', config: sendableRewardConfig(spec.config) } : spec;
}

/**
 * The function computing `spec`'s fields for one record (core `rewardLabelFields` or
 * `criticalStepsLabelFields`); a bad option throws here, before any record is read.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option value
 */
export function labelFieldsOf(spec: LabelSpec): LabelFieldsOf {
  if (spec.command === 'reward') {
    const config = resolveRewardConfig(spec.config);
    return (value, location) => rewardLabelFields(value, config, location) as unknown as Readonly<Record<string, unknown>>;
  }
  const options = spec.config;
  return (value, location) => criticalStepsLabelFields(value, options, location) as unknown as Readonly<Record<string, unknown>>;
}
