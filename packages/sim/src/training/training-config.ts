/**
 * The full configuration of a training run (written as `config.json`), and its validation.
 *
 * @module
 */
import {
  parseBudgetMode,
  PARALLEL_SHAPES,
  ParlInputError,
  fieldPath,
  parseSchedule,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
  requirePositiveInteger,
  type RewardConfig,
  type ScheduleSpec,
} from '@parl/core';
import { DEFAULT_ENV_CONFIG, resolveEnvConfig, type EnvConfig } from '../engine/env-config.js';
import { DEFAULT_MLP_SPEC, type InitialHabit, type MlpSpec } from '../policies/mlp-policy.js';
import { unknownSettingError } from '../internal/engine/unknown-setting.js';

/**
 * The reward part of a training config: core's {@link @parl/core!RewardConfig} fields under their
 * own names, with the λ schedules in their spec §4 JSON form (so `config.json` repeats the run).
 * The budget the episodes run under is the environment's (`env.budget`, `env.onBudget`, the same
 * names as in core); `budget` and `onBudget` here, when set, score the training rollouts under
 * another budget (e.g. a tighter one that makes latency pay while training), and only them: the
 * held-out evaluation is under the environment's.
 */
export interface TrainingRewardConfig extends Required<Pick<RewardConfig, 'maxSubagents' | 'parallelShape'>>, Pick<RewardConfig, 'budget' | 'onBudget'> {
  /** λ1(s), the instantiation weight. */
  readonly lambda1: ScheduleSpec;
  /** λ2(s), the finish weight. */
  readonly lambda2: ScheduleSpec;
}

/** The objective of the Kimi K2.5 report: masked importance ratios and a squared log-ratio penalty. */
export interface ObjectiveConfig {
  /** Lower edge α of the log-ratio window; decisions below it get no gradient. */
  readonly alpha: number;
  /** Upper edge β of the log-ratio window; decisions above it get no gradient. */
  readonly beta: number;
  /** Weight τ of the τ·(log-ratio)² penalty. */
  readonly tau: number;
  /**
   * Weight of an entropy bonus on the mode head (direct call or launch), −modeEntropy · mean_i
   * H(π_mode(·|s_i)) added to the loss; absent or 0: none (the K2.5 objective as stated). It keeps
   * the choice between doing a subtask and launching explored in states where the two score
   * nearly alike while λ1 pays for launching (see docs/simulator.md, `parl-mixed`).
   */
  readonly modeEntropy?: number;
}

/** The optimiser: Adam with a fixed learning rate, several passes over each step's rollouts. */
export interface OptimizerConfig {
  /** Adam learning rate. */
  readonly learningRate: number;
  /** Gradient passes over each training step's decisions (the first is on-policy). */
  readonly updateEpochs: number;
}

/** The policy network and its starting point. */
export interface PolicyConfig extends MlpSpec {
  /** Probability of a direct call in the untrained network (it leans serial). */
  readonly initialDirectProbability: number;
  /** What the untrained network does when it launches (by default: everything to one sub-agent). */
  readonly initialHabit: InitialHabit;
}

/** The held-out evaluation at the end of a run (spec §6 `final`, `baseline_serial`, `latency_to_target`). */
export interface EvaluationConfig {
  /** Held-out tasks. */
  readonly episodes: number;
  /** r_perf targets of the latency-to-target curve. */
  readonly targets: readonly number[];
}

/** Everything a training run needs; `config.json` holds it, and it repeats the run exactly. */
export interface TrainingConfig {
  /** The preset this config started from, or `custom`. */
  readonly preset: string;
  /** Seed of the run: tasks, rollouts, weights. */
  readonly seed: number;
  /** Training steps. */
  readonly steps: number;
  /** Distinct tasks per training step. */
  readonly tasksPerStep: number;
  /** K, rollouts per task. */
  readonly rolloutsPerTask: number;
  /** The simulated swarm. */
  readonly env: EnvConfig;
  /** λ schedules and r_parallel. */
  readonly reward: TrainingRewardConfig;
  /** The RL objective. */
  readonly objective: ObjectiveConfig;
  /** The optimiser. */
  readonly optimizer: OptimizerConfig;
  /** The policy network. */
  readonly policy: PolicyConfig;
  /** The final evaluation. */
  readonly evaluation: EvaluationConfig;
}

const TOP_KEYS = ['preset', 'seed', 'steps', 'tasksPerStep', 'rolloutsPerTask', 'env', 'reward', 'objective', 'optimizer', 'policy', 'evaluation'];

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw unknownSettingError(field, key, allowed);
    }
  }
}

function requireNumberIn(value: unknown, field: string, lo: number, hi: number): number {
  if (typeof value !== 'number' || !(value >= lo && value <= hi)) throw new ParlInputError(field, value, `a number between ${lo} and ${hi}`);
  return value;
}

function readIntList(value: unknown, field: string, min: number): number[] {
  if (!Array.isArray(value) || value.length === 0) throw new ParlInputError(field, value, 'a non-empty array of integers');
  return value.map((v, i) => {
    const n = requirePositiveInteger(v, fieldPath(field, i));
    if (n < min) throw new ParlInputError(fieldPath(field, i), v, `an integer ≥ ${min}`);
    return n;
  });
}

/**
 * Validate a user config (e.g. the JSON of `--config FILE`) over a base config (a preset).
 * Every key is optional and replaces the base's value; nested objects merge key by key;
 * unknown keys are errors.
 *
 * @param partial - untrusted input (parsed JSON); undefined returns `base`
 * @param base - the config to start from (default: the `parl` preset's)
 * @throws {@link @parl/core!ParlInputError} naming the field, the value and what was expected
 *
 * @example
 * ```ts
 * const cfg = resolveTrainingConfig({ steps: 50, seed: 7 }, getPreset('parl'));
 * ```
 */
export function resolveTrainingConfig(partial: unknown, base: TrainingConfig = BASE_TRAINING_CONFIG): TrainingConfig {
  if (partial === undefined) return base;
  const obj = requireObject(partial, 'config');
  checkKeys(obj, TOP_KEYS, '');
  const preset = obj['preset'] === undefined ? base.preset : obj['preset'];
  if (typeof preset !== 'string' || preset === '') throw new ParlInputError('preset', preset, 'a non-empty string');
  const seed = obj['seed'] === undefined ? base.seed : obj['seed'];
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ParlInputError('seed', seed, 'an integer between 0 and 4294967295');
  }
  const int = (key: 'steps' | 'tasksPerStep' | 'rolloutsPerTask'): number =>
    obj[key] === undefined ? base[key] : requirePositiveInteger(obj[key], key);
  const rolloutsPerTask = int('rolloutsPerTask');
  if (rolloutsPerTask < 2) throw new ParlInputError('rolloutsPerTask', rolloutsPerTask, 'an integer ≥ 2 (the advantage compares rollouts of a task)');

  const env = resolveEnvConfig(obj['env'], base.env, 'env');

  let reward = base.reward;
  if (obj['reward'] !== undefined) {
    const r = requireObject(obj['reward'], 'reward');
    checkKeys(r, ['lambda1', 'lambda2', 'maxSubagents', 'parallelShape', 'budget', 'onBudget'], 'reward');
    const budget = r['budget'] === undefined ? base.reward.budget : requireNonNegative(r['budget'], 'reward.budget');
    const onBudget = r['onBudget'] === undefined ? base.reward.onBudget : parseBudgetMode(r['onBudget'], 'reward.onBudget');
    reward = {
      ...(budget === undefined ? {} : { budget }),
      ...(onBudget === undefined ? {} : { onBudget }),
      lambda1: r['lambda1'] === undefined ? base.reward.lambda1 : parseSchedule(r['lambda1'] as string, 'reward.lambda1').spec,
      lambda2: r['lambda2'] === undefined ? base.reward.lambda2 : parseSchedule(r['lambda2'] as string, 'reward.lambda2').spec,
      maxSubagents: r['maxSubagents'] === undefined ? base.reward.maxSubagents : requirePositive(r['maxSubagents'], 'reward.maxSubagents'),
      parallelShape: r['parallelShape'] === undefined ? base.reward.parallelShape : requireOneOf(r['parallelShape'], 'reward.parallelShape', PARALLEL_SHAPES),
    };
  }

  let objective = base.objective;
  if (obj['objective'] !== undefined) {
    const o = requireObject(obj['objective'], 'objective');
    checkKeys(o, ['alpha', 'beta', 'tau', 'modeEntropy'], 'objective');
    const modeEntropy = o['modeEntropy'] === undefined ? base.objective.modeEntropy : requireNumberIn(o['modeEntropy'], 'objective.modeEntropy', 0, 10);
    objective = {
      alpha: o['alpha'] === undefined ? base.objective.alpha : requireNumberIn(o['alpha'], 'objective.alpha', -10, 0),
      beta: o['beta'] === undefined ? base.objective.beta : requireNumberIn(o['beta'], 'objective.beta', 0, 10),
      tau: o['tau'] === undefined ? base.objective.tau : requireNumberIn(o['tau'], 'objective.tau', 0, 100),
      ...(modeEntropy === undefined ? {} : { modeEntropy }),
    };
  }

  let optimizer = base.optimizer;
  if (obj['optimizer'] !== undefined) {
    const o = requireObject(obj['optimizer'], 'optimizer');
    checkKeys(o, ['learningRate', 'updateEpochs'], 'optimizer');
    optimizer = {
      learningRate: o['learningRate'] === undefined ? base.optimizer.learningRate : requireNumberIn(o['learningRate'], 'optimizer.learningRate', 1e-7, 1),
      updateEpochs: o['updateEpochs'] === undefined ? base.optimizer.updateEpochs : requirePositiveInteger(o['updateEpochs'], 'optimizer.updateEpochs'),
    };
  }

  let policy = base.policy;
  if (obj['policy'] !== undefined) {
    const p = requireObject(obj['policy'], 'policy');
    checkKeys(p, ['hidden', 'relativeCounts', 'absoluteCounts', 'countSpread', 'maxCount', 'shareGrid', 'initialDirectProbability', 'initialHabit'], 'policy');
    let shareGrid = base.policy.shareGrid;
    if (p['shareGrid'] !== undefined) {
      const raw = p['shareGrid'];
      if (!Array.isArray(raw) || raw.length === 0) throw new ParlInputError('policy.shareGrid', raw, 'a non-empty array of shares in (0, 1]');
      shareGrid = raw.map((v, i) => {
        if (typeof v !== 'number' || !(v > 0 && v <= 1)) throw new ParlInputError(`policy.shareGrid[${i}]`, v, 'a share in (0, 1]');
        return v;
      });
    }
    const positiveList = (key: 'relativeCounts' | 'absoluteCounts', integers: boolean): readonly number[] => {
      const raw = p[key];
      if (raw === undefined) return base.policy[key];
      const what = integers ? 'a non-empty array of group sizes (integers ≥ 1)' : 'a non-empty array of positive multiples of the ready subtasks';
      if (!Array.isArray(raw) || raw.length === 0) throw new ParlInputError(`policy.${key}`, raw, what);
      return raw.map((v, i) => {
        if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v) || (integers && !Number.isInteger(v))) {
          throw new ParlInputError(`policy.${key}[${i}]`, v, integers ? 'an integer ≥ 1' : 'a positive number');
        }
        return v;
      });
    };
    const relativeCounts = positiveList('relativeCounts', false);
    const absoluteCounts = positiveList('absoluteCounts', true);
    const countSpread = p['countSpread'] === undefined ? base.policy.countSpread : requireNumberIn(p['countSpread'], 'policy.countSpread', 0.01, 10);
    const maxCount = p['maxCount'] === undefined ? base.policy.maxCount : requirePositiveInteger(p['maxCount'], 'policy.maxCount');
    let initialHabit = base.policy.initialHabit;
    if (p['initialHabit'] !== undefined) {
      const h = requireObject(p['initialHabit'], 'policy.initialHabit');
      checkKeys(h, ['width', 'share', 'probability', 'decay'], 'policy.initialHabit');
      initialHabit = {
        width: h['width'] === undefined ? initialHabit.width : requirePositiveInteger(h['width'], 'policy.initialHabit.width'),
        share: h['share'] === undefined ? initialHabit.share : requireNumberIn(h['share'], 'policy.initialHabit.share', 0, 1),
        probability:
          h['probability'] === undefined ? initialHabit.probability : requireNumberIn(h['probability'], 'policy.initialHabit.probability', 0.01, 0.99),
        decay: h['decay'] === undefined ? (initialHabit.decay ?? 0) : requireNumberIn(h['decay'], 'policy.initialHabit.decay', 0, 10),
      };
    }
    if (!absoluteCounts.includes(initialHabit.width)) {
      throw new ParlInputError('policy.initialHabit.width', initialHabit.width, `a value of policy.absoluteCounts (${absoluteCounts.join(', ')})`);
    }
    if (!shareGrid.includes(initialHabit.share)) {
      throw new ParlInputError('policy.initialHabit.share', initialHabit.share, `a value of policy.shareGrid (${shareGrid.join(', ')})`);
    }
    policy = {
      initialHabit,
      hidden: p['hidden'] === undefined ? base.policy.hidden : readIntList(p['hidden'], 'policy.hidden', 1),
      relativeCounts,
      absoluteCounts,
      countSpread,
      maxCount,
      shareGrid,
      initialDirectProbability:
        p['initialDirectProbability'] === undefined
          ? base.policy.initialDirectProbability
          : requireNumberIn(p['initialDirectProbability'], 'policy.initialDirectProbability', 0.01, 0.99),
    };
  }

  let evaluation = base.evaluation;
  if (obj['evaluation'] !== undefined) {
    const e = requireObject(obj['evaluation'], 'evaluation');
    checkKeys(e, ['episodes', 'targets'], 'evaluation');
    let targets = base.evaluation.targets;
    if (e['targets'] !== undefined) {
      const raw = e['targets'];
      if (!Array.isArray(raw)) throw new ParlInputError('evaluation.targets', raw, 'an array of r_perf targets in [0, 1]');
      targets = raw.map((v, i) => requireNumberIn(v, `evaluation.targets[${i}]`, 0, 1));
    }
    evaluation = {
      episodes: e['episodes'] === undefined ? base.evaluation.episodes : requirePositiveInteger(e['episodes'], 'evaluation.episodes'),
      targets,
    };
  }

  return {
    preset,
    seed,
    steps: int('steps'),
    tasksPerStep: int('tasksPerStep'),
    rolloutsPerTask,
    env,
    reward,
    objective,
    optimizer,
    policy,
    evaluation,
  };
}

/** The settings every preset shares; presets change the λ schedules (see `presets.ts`). */
export const BASE_TRAINING_CONFIG: TrainingConfig = {
  preset: 'custom',
  seed: 1,
  steps: 300,
  tasksPerStep: 16,
  rolloutsPerTask: 8,
  env: { ...DEFAULT_ENV_CONFIG, budget: 120 },
  reward: {
    lambda1: { kind: 'linear', from: 0.3, to: 0, steps: 200 },
    lambda2: { kind: 'linear', from: 0.5, to: 0, steps: 260 },
    maxSubagents: 100,
    parallelShape: 'linear',
  },
  objective: { alpha: -1, beta: 1, tau: 0.01 },
  optimizer: { learningRate: 0.003, updateEpochs: 2 },
  policy: { ...DEFAULT_MLP_SPEC, initialDirectProbability: 0.97, initialHabit: { width: 1, share: 1, probability: 0.95, decay: 1.25 } },
  evaluation: { episodes: 256, targets: [0.3, 0.4, 0.5, 0.6, 0.7] },
};
