/**
 * The simulated swarm's parameters: task families and their size and cost distributions, the
 * frozen sub-agents, the orchestrator's limits and the critical-step budget. Every number has a
 * documented default (see docs/simulator.md); {@link resolveEnvConfig} validates user input.
 *
 * @module
 */
import {
  BUDGET_MODES,
  ParlInputError,
  fieldPath,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
  requirePositiveInteger,
  type BudgetMode,
  type RewardConfig,
} from '@parl/core';

import { TASK_FAMILIES, type TaskFamily } from '../names.js';
import { unknownSettingError } from '../internal/engine/unknown-setting.js';

export { TASK_FAMILIES, type TaskFamily };

/** An inclusive integer range `[min, max]`, drawn uniformly. */
export type IntRange = readonly [number, number];

/** Every parameter of the simulated swarm (all required; see {@link DEFAULT_ENV_CONFIG}). */
export interface EnvConfig {
  /** Which tasks are drawn. */
  readonly family: TaskFamily;
  /** Wide tasks: number of independent subtasks, uniform in this range. */
  readonly wideSubtasks: IntRange;
  /** Deep tasks: number of layers before the final aggregation subtask, uniform in this range. */
  readonly deepLayers: IntRange;
  /** Deep tasks: subtasks per layer, uniform in this range per layer. */
  readonly deepLayerWidth: IntRange;
  /** Mixed tasks: probability that a task is deep (else wide). */
  readonly mixedDeepShare: number;
  /** Smallest subtask cost in steps. */
  readonly costMin: number;
  /** Mean subtask cost in steps: cost = costMin + Exponential(costMean − costMin), capped at costMax. */
  readonly costMean: number;
  /** Largest subtask cost in steps. */
  readonly costMax: number;
  /** Steps taken on a subtask are its cost times a uniform factor in [1 − stepNoise, 1 + stepNoise]. */
  readonly stepNoise: number;
  /** Orchestrator steps of a direct tool call on top of the subtask's own steps. */
  readonly directOverhead: number;
  /** Orchestrator steps to launch a group of sub-agents (S_main of a launch stage). */
  readonly launchSteps: number;
  /** Steps every working sub-agent spends reading its brief before its subtasks. */
  readonly subagentOverhead: number;
  /** Steps an idle sub-agent (given no subtask) takes before it returns empty-handed. */
  readonly idleSteps: number;
  /** A sub-agent fails when its steps would exceed this limit (it stops there). */
  readonly subagentStepLimit: number;
  /** Failure probability of a sub-agent given one subtask. */
  readonly subagentFailBase: number;
  /** Failure probability grows by this times (load − 1)² for a sub-agent given `load` subtasks. */
  readonly subagentFailPerExtra: number;
  /** Probability that a sub-agent's result for one subtask is correct, given one subtask. */
  readonly subagentAccuracy: number;
  /** A sub-agent given `load` subtasks has its accuracy multiplied by 1 − subagentLoadDegradation · (load − 1) (floored at 0). */
  readonly subagentLoadDegradation: number;
  /** Probability that a direct call's result is correct with an empty orchestrator context. */
  readonly directAccuracy: number;
  /**
   * Every result the orchestrator takes in (its own direct call's or a sub-agent's) is correct with
   * the accuracy above times 1 − contextDegradation · fill, fill = its context used / size.
   */
  readonly contextDegradation: number;
  /** Orchestrator context size (units); the episode ends when it is full. */
  readonly contextSize: number;
  /** Context units a direct call adds per step it takes (its whole trace stays in context). */
  readonly contextPerStep: number;
  /** Context units the orchestrator spends planning a launch and writing its briefs. */
  readonly launchContext: number;
  /** Context units each sub-agent's returned result adds (idle sub-agents return a message too). */
  readonly resultContext: number;
  /** Largest group the orchestrator may launch in one stage. */
  readonly maxSubagentsPerGroup: number;
  /** The orchestrator stops once its own steps (Σ S_main) reach this limit. */
  readonly orchestratorMaxSteps: number;
  /**
   * At most this many sub-agents run at once (a provider's rate limit), or null for no limit. A
   * larger group runs in waves of this size, one after another: each wave is a stage of its own
   * (later waves have `main_steps` 0, as spec §7 records waves), so idle sub-agents cost latency too.
   */
  readonly concurrency: number | null;
  /** Critical-step budget K (spec §2), or null for none. */
  readonly budget: number | null;
  /** What a budget cut means for r_perf: `fail` (0) or `truncate` (score what finished before the cut). */
  readonly onBudget: BudgetMode;
  /**
   * Whether the orchestrator has a direct tool beside delegation (default true, the K2.5
   * appendix's setting). false: delegate-only — its only alternative to a launch is a turn without
   * a tool call (a **reply**), which either answers now or repeats an earlier turn.
   */
  readonly directAction: boolean;
  /** Delegate-only: the chance that a reply repeats an earlier turn (a wasted stage) instead of answering. */
  readonly repeatProbability: number;
  /**
   * Delegate-only: when the orchestrator answers, each subtask not yet done is answered from memory,
   * correct with this probability (times the context factor); done ones keep their results.
   */
  readonly recallAccuracy: number;
  /** Delegate-only: orchestrator steps of a reply (S_main of an answer or a repetition). */
  readonly replySteps: number;
  /** Delegate-only: context units a repetition adds (it re-emits an earlier plan). */
  readonly repeatContext: number;
}

/**
 * The environment's budget as the fields of core's {@link @parl/core!RewardConfig} of the same
 * names: the engine stops an episode at the stage that crosses `budget`, and core's reward applies
 * `onBudget` (spec §2) when the records are scored with these fields.
 *
 * @example
 * ```ts
 * import { resolveRewardConfig } from '@parl/core';
 * const env = resolveEnvConfig({ budget: 80, onBudget: 'fail' });
 * budgetOf(env).budget; // 80
 * resolveRewardConfig({ lambda1: 'constant:0', ...budgetOf(env) }).onBudget; // "fail"
 * ```
 */
export function budgetOf(env: Pick<EnvConfig, 'budget' | 'onBudget'>): Pick<RewardConfig, 'budget' | 'onBudget'> {
  return env.budget === null ? { onBudget: env.onBudget } : { budget: env.budget, onBudget: env.onBudget };
}

/** The documented defaults of every environment parameter. */
export const DEFAULT_ENV_CONFIG: EnvConfig = {
  family: 'wide',
  wideSubtasks: [12, 28],
  deepLayers: [2, 4],
  deepLayerWidth: [2, 6],
  mixedDeepShare: 0.5,
  costMin: 1,
  costMean: 4,
  costMax: 20,
  stepNoise: 0.25,
  directOverhead: 0.1,
  launchSteps: 1,
  subagentOverhead: 1,
  idleSteps: 1,
  subagentStepLimit: 100,
  subagentFailBase: 0.02,
  subagentFailPerExtra: 0.03,
  subagentAccuracy: 0.94,
  subagentLoadDegradation: 0.04,
  directAccuracy: 0.95,
  contextDegradation: 0.2,
  contextSize: 128,
  contextPerStep: 1,
  launchContext: 20,
  resultContext: 0.5,
  maxSubagentsPerGroup: 100,
  orchestratorMaxSteps: 100,
  concurrency: null,
  budget: null,
  onBudget: 'fail',
  directAction: true,
  repeatProbability: 0.3,
  recallAccuracy: 0.2,
  replySteps: 1,
  repeatContext: 20,
};

const PROBABILITY_KEYS = [
  'mixedDeepShare',
  'subagentFailBase',
  'subagentFailPerExtra',
  'subagentAccuracy',
  'subagentLoadDegradation',
  'directAccuracy',
  'contextDegradation',
  'repeatProbability',
  'recallAccuracy',
] as const;

const NON_NEGATIVE_KEYS = ['directOverhead', 'launchContext', 'resultContext', 'contextPerStep', 'idleSteps', 'subagentOverhead', 'repeatContext'] as const;

const POSITIVE_KEYS = ['costMin', 'costMean', 'costMax', 'launchSteps', 'subagentStepLimit', 'contextSize', 'orchestratorMaxSteps', 'replySteps'] as const;

const RANGE_KEYS = ['wideSubtasks', 'deepLayers', 'deepLayerWidth'] as const;

const KNOWN_KEYS = new Set<string>(Object.keys(DEFAULT_ENV_CONFIG));

/** Largest number of subtasks a task may have (sizes the batched engine's arrays). */
export const MAX_SUBTASKS = 256;

function readRange(value: unknown, field: string): IntRange {
  if (!Array.isArray(value) || value.length !== 2) throw new ParlInputError(field, value, 'a [min, max] pair of integers ≥ 1');
  const lo = requirePositiveInteger(value[0], fieldPath(field, 0));
  const hi = requirePositiveInteger(value[1], fieldPath(field, 1));
  if (hi < lo) throw new ParlInputError(fieldPath(field, 1), hi, `at least min = ${lo}`);
  return [lo, hi];
}

/**
 * Validate a partial environment config (e.g. the `env` object of a JSON config) over a base.
 * Unknown keys are errors, so a typo never silently falls back to a default.
 *
 * @param partial - untrusted input; undefined gives `base`
 * @param base - the values to start from (default {@link DEFAULT_ENV_CONFIG})
 * @param field - the field path used in error messages (default `env`)
 * @throws {@link @parl/core!ParlInputError} naming the field, the value and what was expected
 *
 * @example
 * ```ts
 * resolveEnvConfig({ family: 'deep', budget: 80 }).costMean; // 4
 * resolveEnvConfig({ famly: 'deep' });
 * // throws: env.famly must be a known setting of env (did you mean env.family?;
 * ```
 */
export function resolveEnvConfig(partial: unknown, base: EnvConfig = DEFAULT_ENV_CONFIG, field = 'env'): EnvConfig {
  if (partial === undefined) return base;
  const obj = requireObject(partial, field);
  for (const key of Object.keys(obj)) {
    if (!KNOWN_KEYS.has(key)) {
      throw unknownSettingError(field, key, [...KNOWN_KEYS]);
    }
  }
  const out: Record<string, unknown> = { ...base };
  const f = (k: string): string => fieldPath(field, k);
  if (obj['family'] !== undefined) out['family'] = requireOneOf(obj['family'], f('family'), TASK_FAMILIES);
  for (const k of PROBABILITY_KEYS) {
    const v = obj[k];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new ParlInputError(f(k), v, 'a probability between 0 and 1');
    out[k] = v;
  }
  for (const k of NON_NEGATIVE_KEYS) if (obj[k] !== undefined) out[k] = requireNonNegative(obj[k], f(k));
  for (const k of POSITIVE_KEYS) if (obj[k] !== undefined) out[k] = requirePositive(obj[k], f(k));
  for (const k of RANGE_KEYS) if (obj[k] !== undefined) out[k] = readRange(obj[k], f(k));
  if (obj['stepNoise'] !== undefined) {
    const v = obj['stepNoise'];
    if (typeof v !== 'number' || !(v >= 0 && v < 1)) throw new ParlInputError(f('stepNoise'), v, 'a number in [0, 1)');
    out['stepNoise'] = v;
  }
  if (obj['maxSubagentsPerGroup'] !== undefined) out['maxSubagentsPerGroup'] = requirePositiveInteger(obj['maxSubagentsPerGroup'], f('maxSubagentsPerGroup'));
  if (obj['concurrency'] !== undefined) {
    out['concurrency'] = obj['concurrency'] === null ? null : requirePositiveInteger(obj['concurrency'], f('concurrency'));
  }
  if (obj['budget'] !== undefined) out['budget'] = obj['budget'] === null ? null : requireNonNegative(obj['budget'], f('budget'));
  if (obj['onBudget'] !== undefined) out['onBudget'] = requireOneOf(obj['onBudget'], f('onBudget'), BUDGET_MODES);
  if (obj['directAction'] !== undefined) {
    if (typeof obj['directAction'] !== 'boolean') throw new ParlInputError(f('directAction'), obj['directAction'], 'true or false');
    out['directAction'] = obj['directAction'];
  }
  const env = out as unknown as EnvConfig;
  if (env.costMean < env.costMin) throw new ParlInputError(f('costMean'), env.costMean, `at least costMin = ${env.costMin}`);
  if (env.costMax < env.costMean) throw new ParlInputError(f('costMax'), env.costMax, `at least costMean = ${env.costMean}`);
  const largestWide = env.wideSubtasks[1];
  const largestDeep = env.deepLayers[1] * env.deepLayerWidth[1] + 1;
  if (largestWide > MAX_SUBTASKS) throw new ParlInputError(f('wideSubtasks'), env.wideSubtasks, `sizes of at most ${MAX_SUBTASKS} subtasks`);
  if (largestDeep > MAX_SUBTASKS) {
    throw new ParlInputError(f('deepLayers'), env.deepLayers, `at most ${MAX_SUBTASKS} subtasks per task (layers × width + 1)`);
  }
  return env;
}

/** The largest number of subtasks a task of this config can have. */
export function maxSubtasksOf(env: EnvConfig): number {
  const wide = env.wideSubtasks[1];
  const deep = env.deepLayers[1] * env.deepLayerWidth[1] + 1;
  if (env.family === 'wide') return wide;
  if (env.family === 'deep') return deep;
  return Math.max(wide, deep);
}
