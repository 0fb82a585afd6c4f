import { tf } from '@parl/gpu';
import { describe, expect, it } from 'vitest';
import { getPreset, MlpPolicy, resolveTrainingConfig, train, type DecisionTrace, type ObjectiveConfig, type TrainingProgress } from '../src/index.js';
import { DEFAULT_MLP_SPEC } from '../src/policies/mlp-policy.js';
import { disposeUpdateBatch, updatePolicy } from '../src/training/trainer.js';
import { FEATURE_COUNT } from '../src/internal/engine/features.js';
import { parlObjectiveGradients } from '../src/internal/training/parl-objective.js';
import { Rng } from '../src/internal/engine/rng.js';
import { buildUpdateBatch } from '../src/training/trainer.js';
import { ratioWindowMask } from '../src/internal/training/parl-objective.js';

/** n random decisions of 4 episodes (about half of them launches on 1–20 ready subtasks). */
function randomTrace(n: number, policy: MlpPolicy, seed: number): DecisionTrace {
  const rng = new Rng(seed);
  const trace: DecisionTrace = { features: [], mode: [], width: [], share: [], slot: [] };
  for (let i = 0; i < n; i++) {
    const launch = rng.uniform() < 0.5 ? 1 : 0;
    const ready = rng.int(1, 20);
    trace.features.push(ready / 32, ...Array.from({ length: FEATURE_COUNT - 1 }, () => rng.uniform()));
    trace.mode.push(launch);
    trace.width.push(launch === 1 ? rng.int(0, policy.spec.maxCount - 1) : 0);
    trace.share.push(launch === 1 ? rng.int(0, policy.spec.shareGrid.length - 1) : 0);
    trace.slot.push(rng.int(0, 3));
  }
  return trace;
}

const tiny = (seed = 1) =>
  resolveTrainingConfig({ seed, steps: 6, tasksPerStep: 3, rolloutsPerTask: 4, evaluation: { episodes: 16 } }, getPreset('parl'));

describe('updatePolicy', () => {
  it.each([
    ['the K2.5 objective', { alpha: -0.2, beta: 0.2, tau: 0.05 }],
    ['with a mode entropy bonus', { alpha: -0.2, beta: 0.2, tau: 0.05, modeEntropy: 0.3 }],
  ] as const)('moves the weights exactly as separate behaviour, ratio and gradient passes do (%s)', (_name, objective: ObjectiveConfig) => {
    const spec = { ...DEFAULT_MLP_SPEC, hidden: [16, 8] };
    const fused = MlpPolicy.create(spec, 0.6, 7);
    const separate = MlpPolicy.create(spec, 0.6, 7);
    const trace = randomTrace(60, fused, 3);
    const advantage = Float64Array.of(0.9, -0.4, 0.3, -0.8);
    const epochs = 4;
    const optimizers: [tf.Optimizer, tf.Optimizer] = [tf.train.adam(0.05), tf.train.adam(0.05)];
    const a = buildUpdateBatch(fused, trace, advantage);
    updatePolicy(fused, optimizers[0], a, objective, epochs);
    // The reference: the behaviour log-probabilities, then per epoch a ratio pass and a gradient pass.
    const b = buildUpdateBatch(separate, trace, advantage);
    const behaviourLogProb = tf.tidy(() => separate.logProb(b.x, b.multiHot, b.actions));
    const behaviour = behaviourLogProb.dataSync() as Float32Array;
    let masked = 0;
    for (let epoch = 0; epoch < epochs; epoch++) {
      const now = tf.tidy(() => separate.logProb(b.x, b.multiHot, b.actions));
      const logRatio = (now.dataSync() as Float32Array).map((v, i) => v - (behaviour[i] as number));
      now.dispose();
      const maskValues = ratioWindowMask(logRatio, objective);
      masked += maskValues.filter((m) => m === 0).length;
      const mask = tf.tensor1d(maskValues);
      const { value, grads } = parlObjectiveGradients(separate, { ...b, behaviourLogProb }, mask, objective);
      optimizers[1].applyGradients(grads);
      tf.dispose([mask, value, ...Object.values(grads)]);
    }
    expect(masked).toBeGreaterThan(0); // the later passes did move some log-ratios out of the window
    fused.variables.forEach((v, i) => expect(Array.from(v.dataSync())).toEqual(Array.from((separate.variables[i] as tf.Variable).dataSync())));
    expect(Array.from((fused.variables[0] as tf.Variable).dataSync())).not.toEqual(Array.from(MlpPolicy.create(spec, 0.6, 7).variables[0]?.dataSync() ?? []));
    tf.dispose([behaviourLogProb]);
    disposeUpdateBatch(a);
    disposeUpdateBatch(b);
    for (const o of optimizers) o.dispose();
    fused.dispose();
    separate.dispose();
  });
});

describe('train', () => {
  it('gives bit-identical metrics and summary for the same seed', async () => {
    const a = await train(tiny(5));
    const b = await train(tiny(5));
    const c = await train(tiny(6));
    expect(JSON.stringify(b.metrics)).toBe(JSON.stringify(a.metrics));
    expect(JSON.stringify(b.summary)).toBe(JSON.stringify(a.summary));
    expect(JSON.stringify(c.metrics)).not.toBe(JSON.stringify(a.metrics));
    for (const r of [a, b, c]) r.policy.dispose();
  });

  it('writes the spec §6 metrics fields, with λ from core schedules', async () => {
    const progress: TrainingProgress[] = [];
    const result = await train(tiny(), { onProgress: (p) => progress.push(p) });
    expect(result.metrics).toHaveLength(6);
    expect(Object.keys(result.metrics[0] ?? {})).toEqual([
      'step',
      'lambda1',
      'lambda2',
      'total_reward',
      'r_parallel',
      'r_finish',
      'r_perf',
      'critical_steps',
      'mean_width',
      'finish_rate',
      'success_rate',
      'total_steps',
      'subagents',
      'assign_rate',
      'truncated_share',
      'repeat_share',
    ]);
    result.metrics.forEach((m, s) => {
      expect(m.step).toBe(s);
      expect(m.lambda1).toBeCloseTo(0.3 * (1 - s / 200), 12);
      expect(m.total_reward).toBeCloseTo(m.lambda1 * m.r_parallel + m.lambda2 * m.r_finish + m.r_perf, 12);
    });
    expect(progress.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Object.keys(result.summary)).toEqual(['preset', 'seed', 'steps', 'final', 'baseline_serial', 'latency_to_target', 'baselines']);
    expect(result.summary.baselines.map((b) => b.policy)).toEqual(['serial', 'max-parallel', 'balanced']);
    expect(result.summary.latency_to_target.map((p) => p.target)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
    result.policy.dispose();
  });

  it('does not leak tensors across training steps', async () => {
    const counts: number[] = [];
    const result = await train(resolveTrainingConfig({ steps: 8 }, tiny()), {
      onProgress: () => counts.push(tf.memory().numTensors),
    });
    // After the optimiser has created its slots (step 1), the count must stay flat.
    expect(new Set(counts.slice(1)).size).toBe(1);
    const held = tf.memory().numTensors;
    result.policy.dispose();
    // The weights are all the policy holds (the width basis is built per training step and freed).
    expect(tf.memory().numTensors).toBe(held - result.policy.variables.length);
  });
});
