/**
 * Training the orchestrator with the RL objective of the Kimi K2.5 report: K rollouts per task,
 * advantage = reward − the mean reward of those K, a per-decision importance ratio against the
 * behaviour policy whose gradient is zeroed where the log-ratio leaves [α, β], and a
 * τ·(log-ratio)² penalty. Rewards come from `@parl/core` unchanged.
 *
 * @module
 */
import { groupedAdvantages, resolveRewardConfig, type ResolvedRewardConfig, type RunSummary, type ScriptedBaselineResult, type StepMetrics } from '@parl/core';
import { initBackend, tf } from '@parl/gpu';
import { evaluate } from '../internal/evaluation/evaluation.js';
import { budgetOf } from '../engine/env-config.js';
import { FEATURE_COUNT } from '../internal/engine/features.js';
import { MlpPolicy, disposeActionTensors, emptyDecisionTrace, type ActionTensors, type DecisionTrace } from '../policies/mlp-policy.js';
import { scoreEpisodes, stepMetrics } from '../internal/evaluation/metrics.js';
import { lossOfLogProb, ratioWindowMask } from '../internal/training/parl-objective.js';
import { mixSeed } from '../internal/engine/rng.js';
import { runEpisodes, type EpisodeSeeds } from '../rollout/rollout.js';
import type { ObjectiveConfig, TrainingConfig } from './training-config.js';

/** What {@link train} reports after every step. */
export interface TrainingProgress {
  /** Steps done (1-based). */
  readonly step: number;
  /** Steps in the run. */
  readonly totalSteps: number;
  /** λ1 at this step. */
  readonly lambda1: number;
  /** λ2 at this step. */
  readonly lambda2: number;
  /** Mean r_PARL of the step's rollouts. */
  readonly total_reward: number;
  /** Mean group width of the step's rollouts. */
  readonly mean_width: number;
  /** Sub-agent finish rate of the step's rollouts. */
  readonly finish_rate: number;
  /** Mean r_perf of the step's rollouts. */
  readonly r_perf: number;
  /** Milliseconds since training started. */
  readonly elapsedMs: number;
}

/** Everything a training run produced; {@link writeRunFolder} writes it as a spec §6 run folder. */
export interface TrainingResult {
  /** The resolved configuration. */
  readonly config: TrainingConfig;
  /** One spec §6 metrics line per step. */
  readonly metrics: StepMetrics[];
  /** spec §6 summary, with every scripted baseline on the held-out tasks (`baselines`). */
  readonly summary: RunSummary & { readonly baselines: readonly ScriptedBaselineResult[] };
  /** The trained policy (dispose it when done). */
  readonly policy: MlpPolicy;
}

/** Options of {@link train}. */
export interface TrainOptions {
  /** Called after every training step. */
  readonly onProgress?: (progress: TrainingProgress) => void;
}

/**
 * The reward config core scores training rollouts with: the training config's `reward` (core's
 * {@link @parl/core!RewardConfig} fields as they are) over the environment's budget under the same
 * names ({@link budgetOf}).
 */
export function rewardConfigOf(config: TrainingConfig): ResolvedRewardConfig {
  return resolveRewardConfig({ ...budgetOf(config.env), ...config.reward });
}

/** The decisions of one training step, ready for {@link updatePolicy}. */
export interface UpdateBatch {
  /** Feature rows `[n, FEATURE_COUNT]`. */
  readonly x: tf.Tensor2D;
  /** Chosen mode, and for launches the chosen group size and share, per row `[n, actionSize]`. */
  readonly multiHot: tf.Tensor2D;
  /** The episode's advantage for each decision `[n]`. */
  readonly advantage: tf.Tensor1D;
  /** The same actions for {@link MlpPolicy.logProb}, rows ordered launches first ({@link MlpPolicy.actionTensors}). */
  readonly actions: ActionTensors;
}

/**
 * Turn a step's decision trace and per-slot advantages into an {@link UpdateBatch} (dispose it
 * with {@link disposeUpdateBatch}). The rows are the trace's decisions with the launches first
 * (each group in trace order), so that the width and share heads are computed for launches only;
 * the loss is a mean over decisions, whatever their order.
 */
export function buildUpdateBatch(policy: MlpPolicy, trace: DecisionTrace, advantageOfSlot: Float64Array): UpdateBatch {
  const n = trace.mode.length;
  const A = policy.actionSize;
  const W = policy.spec.maxCount;
  const F = FEATURE_COUNT;
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (trace.mode[i] === 1) order.push(i);
  const launches = order.length;
  for (let i = 0; i < n; i++) if (trace.mode[i] !== 1) order.push(i);
  const x = new Float32Array(n * F);
  const hot = new Float32Array(n * A);
  const adv = new Float32Array(n);
  for (let row = 0; row < n; row++) {
    const i = order[row] as number;
    for (let f = 0; f < F; f++) x[row * F + f] = trace.features[i * F + f] as number;
    const mode = trace.mode[i] as number;
    hot[row * A + mode] = 1;
    if (mode === 1) {
      hot[row * A + 2 + (trace.width[i] as number)] = 1;
      hot[row * A + 2 + W + (trace.share[i] as number)] = 1;
    }
    adv[row] = advantageOfSlot[trace.slot[i] as number] as number;
  }
  return {
    x: tf.tensor2d(x, [n, F]),
    multiHot: tf.tensor2d(hot, [n, A]),
    advantage: tf.tensor1d(adv),
    actions: policy.actionTensors(x, hot, launches),
  };
}

/** Free the tensors of an {@link UpdateBatch}. */
export function disposeUpdateBatch(batch: UpdateBatch): void {
  tf.dispose([batch.x, batch.multiHot, batch.advantage]);
  disposeActionTensors(batch.actions);
}

/**
 * One policy update on a step's decisions: `epochs` Adam steps on the K2.5 loss
 * L = −mean_i(mask_i · ratio_i · A_i) + τ · mean_i(log-ratio_i²) (see {@link parlObjectiveGradients}),
 * where ratio_i = π_θ / π_behaviour of decision i, the behaviour policy is the policy as it acted
 * (the weights before this update), and mask_i = 0 where the log-ratio left [α, β] (no gradient
 * from the ratio there). The gradient is tfjs autodiff's (`tf.variableGrads`). The first pass is
 * on-policy (log-ratio 0); later passes see the ratio move.
 *
 * Each pass is one forward pass: the log-probabilities it computes for the gradient are read back
 * inside the gradient function, and give the behaviour log-probabilities (first pass) or the
 * log-ratios that decide the mask (later passes) before the loss is built on them. The numbers are
 * those of separate passes, as the same operations run on the same inputs.
 */
export function updatePolicy(policy: MlpPolicy, optimizer: tf.Optimizer, batch: UpdateBatch, objective: ObjectiveConfig, epochs: number): void {
  const withEntropy = (objective.modeEntropy ?? 0) > 0;
  // The behaviour policy's log-probabilities, on the host (for the log-ratios) and as a tensor (for the loss).
  const behaviour: { values: Float32Array | null; tensor: tf.Tensor1D | null } = { values: null, tensor: null };
  const kept: tf.Tensor[] = [];
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const { value, grads } = tf.variableGrads(() => {
        const { logProb, modeEntropy } = policy.logProbAndModeEntropy(batch.x, batch.multiHot, batch.actions, withEntropy);
        const values = logProb.dataSync() as Float32Array;
        const before = behaviour.values;
        let behaviourTensor = behaviour.tensor;
        let logRatio: Float32Array;
        if (before === null || behaviourTensor === null) {
          behaviour.values = Float32Array.from(values);
          behaviourTensor = tf.keep(tf.tensor1d(behaviour.values));
          behaviour.tensor = behaviourTensor;
          kept.push(behaviourTensor);
          logRatio = new Float32Array(values.length);
        } else {
          logRatio = values.map((v, i) => v - (before[i] as number));
        }
        const mask = tf.keep(tf.tensor1d(ratioWindowMask(logRatio, objective)));
        kept.push(mask);
        return lossOfLogProb(logProb, modeEntropy, behaviourTensor, batch.advantage, mask, objective);
      }, policy.variables);
      optimizer.applyGradients(grads);
      value.dispose();
      tf.dispose(Object.values(grads));
    }
  } finally {
    tf.dispose(kept);
  }
}

/** Seed of task j of training step s. */
function trainTaskSeed(seed: number, step: number, j: number, tasksPerStep: number): number {
  return mixSeed(mixSeed(seed, 0x7a11), step * tasksPerStep + j);
}

/**
 * Train an orchestrator policy, then evaluate it on held-out tasks against the serial baseline.
 * The same config (seed included) gives the same metrics, bit for bit, on the same backend.
 *
 * @param config - a preset (`getPreset`) or a resolved config (`resolveTrainingConfig`)
 * @param options - `onProgress`, called after every step
 *
 * @example
 * ```ts
 * const result = await train(resolveTrainingConfig({ steps: 100 }, getPreset('parl')), {
 *   onProgress: (p) => console.log(p.step, p.r_perf, p.mean_width),
 * });
 * await writeRunFolder('runs/parl', result);
 * result.policy.dispose();
 * ```
 */
export async function train(config: TrainingConfig, options: TrainOptions = {}): Promise<TrainingResult> {
  await initBackend();
  const started = performance.now();
  const reward = rewardConfigOf(config);
  const T = config.tasksPerStep;
  const K = config.rolloutsPerTask;
  const B = T * K;
  const policy = MlpPolicy.create(config.policy, config.policy.initialDirectProbability, config.seed, config.policy.initialHabit);
  const optimizer = tf.train.adam(config.optimizer.learningRate);
  const episodeStream = mixSeed(config.seed, 0x6011);
  const metrics: StepMetrics[] = [];
  const rewards = new Float64Array(B);
  const advantage = new Float64Array(B);
  try {
    for (let step = 0; step < config.steps; step++) {
      const seeds: EpisodeSeeds[] = [];
      for (let j = 0; j < T; j++) {
        const taskSeed = trainTaskSeed(config.seed, step, j, T);
        for (let r = 0; r < K; r++) seeds.push({ taskSeed, episodeSeed: mixSeed(episodeStream, (step * T + j) * K + r) });
      }
      const trace = emptyDecisionTrace();
      const records = runEpisodes(config.env, policy, seeds, {
        greedy: false,
        batchSize: B,
        trace,
        trainingStep: step,
        idOf: (b) => `step-${step}/task-${Math.floor(b / K)}/rollout-${b % K}`,
      });
      const scored = scoreEpisodes(records, reward);
      for (let b = 0; b < B; b++) rewards[b] = (scored[b] as (typeof scored)[number]).reward.total_reward;
      // The K2.5 group baseline: core's one GRPO advantage, reward − the mean of the task's K rollouts.
      groupedAdvantages(rewards, K, { scale: 'none' }, advantage);
      const batch = buildUpdateBatch(policy, trace, advantage);
      try {
        updatePolicy(policy, optimizer, batch, config.objective, config.optimizer.updateEpochs);
      } finally {
        disposeUpdateBatch(batch);
      }
      const m = stepMetrics(step, reward.lambda1.at(step), reward.lambda2.at(step), scored);
      metrics.push(m);
      options.onProgress?.({
        step: step + 1,
        totalSteps: config.steps,
        lambda1: m.lambda1,
        lambda2: m.lambda2,
        total_reward: m.total_reward,
        mean_width: m.mean_width,
        finish_rate: m.finish_rate,
        r_perf: m.r_perf,
        elapsedMs: performance.now() - started,
      });
    }
    const evaluation = evaluate(policy, config.env, config.seed, config.evaluation.episodes, config.evaluation.targets);
    return {
      config,
      metrics,
      summary: { preset: config.preset, seed: config.seed, steps: config.steps, ...evaluation },
      policy,
    };
  } catch (err) {
    policy.dispose();
    throw err;
  } finally {
    optimizer.dispose();
  }
}
