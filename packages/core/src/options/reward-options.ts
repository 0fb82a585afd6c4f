/**
 * The reward options (spec §3) and the critical-steps options (spec §2), declared once: `parl
 * reward` and `parl critical-steps` build their flags from these tables, `POST /v1/rewards` and
 * `/get_reward` their query parameters, and the docs their option tables.
 *
 * @module
 */
import { BUDGET_MODES, type BudgetMode } from '../budget.js';
import { PARALLEL_SHAPES, REWARD_DEFAULTS, type ParallelShape } from '../reward.js';
import { choiceOption, nonNegativeDecimalOption, positiveDecimalOption, scheduleOption } from './option-parsers.js';
import { defineOptionTable, type OptionsOf } from './option-table.js';

const DEFAULT_LAMBDA = `linear ${REWARD_DEFAULTS.lambdaInit} → ${REWARD_DEFAULTS.lambdaFinal} over total-steps`;

/**
 * The reward options: flags of `parl reward` and `parl swarm run`, query parameters of `POST
 * /v1/rewards` and `/get_reward` (named as the flags, but `training_step` for `--step`). The
 * config they resolve to is {@link RewardOptions}: plain data (a worker thread can receive it),
 * and a {@link RewardConfig} as it is.
 *
 * @example
 * ```ts
 * const options = resolveOptions(REWARD_OPTIONS, { training_step: '5000', lambda1: 'linear:0.1:0:10000' }, 'query');
 * computeReward({ num_subagents: 4, r_perf: 1 }, options).lambda1; // 0.05
 * ```
 */
export const REWARD_OPTIONS = defineOptionTable({
  maxSubagents: {
    flag: 'max-subagents',
    query: 'max-subagents',
    arg: 'n',
    parse: positiveDecimalOption,
    default: REWARD_DEFAULTS.maxSubagents,
    help: 'saturation point of r_parallel',
  },
  lambda1: { flag: 'lambda1', query: 'lambda1', arg: 'schedule', parse: scheduleOption, defaultText: DEFAULT_LAMBDA, help: 'λ1 schedule, short form (linear:0.1:0:10000) or JSON' },
  lambda2: { flag: 'lambda2', query: 'lambda2', arg: 'schedule', parse: scheduleOption, defaultText: DEFAULT_LAMBDA, help: 'λ2 schedule, short form or JSON' },
  totalTrainingSteps: {
    flag: 'total-steps',
    query: 'total-steps',
    arg: 'n',
    parse: positiveDecimalOption,
    default: REWARD_DEFAULTS.totalTrainingSteps,
    help: 'length of the default λ schedules',
  },
  step: { flag: 'step', query: 'training_step', arg: 's', parse: nonNegativeDecimalOption, help: 'training step for every record, overriding training_step' },
  parallelShape: {
    flag: 'parallel-shape',
    query: 'parallel-shape',
    arg: 'shape',
    choices: PARALLEL_SHAPES,
    parse: choiceOption(PARALLEL_SHAPES),
    default: REWARD_DEFAULTS.parallelShape,
    help: 'shape of r_parallel: n/max, or ln(1+n)/ln(1+max)',
  },
  budget: { flag: 'budget', query: 'budget', arg: 'K', parse: nonNegativeDecimalOption, help: 'critical-step budget: an episode whose stages exceed K is cut (spec §2)' },
  onBudget: {
    flag: 'on-budget',
    query: 'on-budget',
    arg: 'mode',
    choices: BUDGET_MODES,
    parse: choiceOption(BUDGET_MODES),
    default: 'fail',
    help: "what a cut means for r_perf: 0 (fail) or keep the record's score (truncate)",
  },
});

/**
 * The critical-steps options: flags of `parl critical-steps`.
 *
 * @example
 * ```ts
 * const options = resolveOptions(CRITICAL_STEPS_OPTIONS, { budget: '40' }, 'flag');
 * labelCriticalSteps({ stages: [{ main_steps: 30, sub_steps: [20] }] }, options).within_budget; // false
 * ```
 */
export const CRITICAL_STEPS_OPTIONS = defineOptionTable({
  budget: { flag: 'budget', arg: 'K', parse: nonNegativeDecimalOption, help: 'critical-step budget: adds within_budget and budget_cut_stage' },
  onBudget: {
    flag: 'on-budget',
    arg: 'mode',
    choices: BUDGET_MODES,
    parse: choiceOption(BUDGET_MODES),
    default: 'fail',
    help: 'fail: fields of the whole episode; truncate: fields of the stages that ran before the cut',
  },
});

/**
 * The reward options as flags and query parameters give them (derived from {@link REWARD_OPTIONS}):
 * every value checked, schedules as specs; a {@link RewardConfig} as it is.
 */
export type RewardOptions = OptionsOf<typeof REWARD_OPTIONS>;

/** The options of `parl critical-steps` (derived from {@link CRITICAL_STEPS_OPTIONS}): a critical-step budget and what a cut means. */
export type CriticalStepsOptions = OptionsOf<typeof CRITICAL_STEPS_OPTIONS>;
