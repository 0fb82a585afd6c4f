import { tf } from '@parl/gpu';
import { groupedAdvantages } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { MlpPolicy, type ObjectiveConfig } from '../src/index.js';
import { DEFAULT_MLP_SPEC } from '../src/policies/mlp-policy.js';
import { FEATURE_COUNT } from '../src/internal/engine/features.js';
import { Rng } from '../src/internal/engine/rng.js';
import { parlObjectiveGradients, parlObjectiveLoss, type ObjectiveBatch } from '../src/internal/training/parl-objective.js';
import { ratioWindowMask } from '../src/internal/training/parl-objective.js';

const OBJECTIVE: ObjectiveConfig = { alpha: -0.5, beta: 0.5, tau: 0.3 };

/** n random decisions; the behaviour log-probabilities are the policy's own plus noise in [−0.8, 0.8]. */
function randomBatch(n: number, policy: MlpPolicy, seed: number): { batch: ObjectiveBatch; logRatio: Float32Array } {
  const rng = new Rng(seed);
  const A = policy.actionSize;
  const W = policy.spec.maxCount;
  const S = policy.spec.shareGrid.length;
  const x = tf.tensor2d(Float32Array.from({ length: n * FEATURE_COUNT }, () => rng.uniform()), [n, FEATURE_COUNT]);
  const hot = new Float32Array(n * A);
  for (let i = 0; i < n; i++) {
    const launch = rng.uniform() < 0.5;
    hot[i * A + (launch ? 1 : 0)] = 1;
    if (launch) {
      hot[i * A + 2 + rng.int(0, W - 1)] = 1;
      hot[i * A + 2 + W + rng.int(0, S - 1)] = 1;
    }
  }
  const multiHot = tf.tensor2d(hot, [n, A]);
  const noise = Float32Array.from({ length: n }, () => (rng.uniform() * 2 - 1) * 0.8);
  const own = tf.tidy(() => policy.logProb(x, multiHot));
  const behaviourLogProb = tf.tidy(() => tf.add(own, tf.tensor1d(noise)) as tf.Tensor1D);
  own.dispose();
  const advantage = tf.tensor1d(Float32Array.from({ length: n }, () => rng.uniform() * 2 - 1));
  return { batch: { x, multiHot, advantage, behaviourLogProb }, logRatio: noise.map((v) => -v) };
}

function disposeBatch(batch: ObjectiveBatch): void {
  tf.dispose([batch.x, batch.multiHot, batch.advantage, batch.behaviourLogProb]);
}

describe('the K2.5 objective', () => {
  it("takes each rollout's advantage against the mean reward of its own task's K rollouts (core's groupedAdvantages, scale none)", () => {
    // The trainer's layout: task j's K rollouts in slots j·K … j·K + K − 1, advantages written in place.
    const out = new Float64Array(8);
    groupedAdvantages([1, 0, 0.5, 0.5, 0.2, 0.8, 0.2, 0.8], 4, { scale: 'none' }, out);
    [0.5, -0.5, 0, 0, -0.3, 0.3, -0.3, 0.3].forEach((expected, i) => expect(out[i]).toBeCloseTo(expected, 12));
  });

  it('masks decisions whose log-ratio left [α, β], edges included in the window', () => {
    expect(Array.from(ratioWindowMask([-2, -1, 0, 0.5, 1, 3], { alpha: -1, beta: 1, tau: 0 }))).toEqual([0, 1, 1, 1, 1, 0]);
  });

  it.each([
    ['one hidden layer', [8], OBJECTIVE],
    ['two hidden layers and a mode entropy bonus', [8, 6], { ...OBJECTIVE, modeEntropy: 0.5 }],
  ] as const)('has the autodiff gradient that finite differences measure (%s)', (_name, hidden, objective: ObjectiveConfig) => {
    const policy = MlpPolicy.create({ ...DEFAULT_MLP_SPEC, hidden: [...hidden] }, 0.7, 3);
    const { batch, logRatio } = randomBatch(12, policy, 11);
    const maskValues = ratioWindowMask(logRatio, objective);
    expect(new Set(maskValues).size).toBe(2); // some decisions inside the window, some outside
    const mask = tf.tensor1d(maskValues);
    const loss = (): number => tf.tidy(() => parlObjectiveLoss(policy, batch, mask, objective).dataSync()[0] as number);
    const before = tf.memory().numTensors;
    const { value, grads } = parlObjectiveGradients(policy, batch, mask, objective);
    expect(tf.memory().numTensors).toBe(before + 1 + policy.variables.length); // only the value and the gradients remain
    expect(value.dataSync()[0]).toBeCloseTo(loss(), 6);
    const eps = 1e-2;
    for (const v of policy.variables) {
      const g = grads[v.name]?.dataSync() as Float32Array;
      const values = v.dataSync().slice() as Float32Array;
      for (const idx of [0, Math.floor(values.length / 2), values.length - 1]) {
        const plus = values.slice();
        plus[idx] = (plus[idx] as number) + eps;
        v.assign(tf.tensor(plus, v.shape));
        const up = loss();
        const minus = values.slice();
        minus[idx] = (minus[idx] as number) - eps;
        v.assign(tf.tensor(minus, v.shape));
        const down = loss();
        v.assign(tf.tensor(values, v.shape));
        const numeric = (up - down) / (2 * eps);
        expect(Math.abs(numeric - (g[idx] as number))).toBeLessThan(1e-3 + 2e-2 * Math.abs(numeric));
      }
    }
    tf.dispose([value, mask, ...Object.values(grads)]);
    disposeBatch(batch);
    policy.dispose();
  });

  it('adds −c · mean mode entropy to the loss with a mode entropy bonus c', () => {
    const policy = MlpPolicy.create({ ...DEFAULT_MLP_SPEC, hidden: [8] }, 0.7, 5);
    const { batch, logRatio } = randomBatch(9, policy, 13);
    const mask = tf.tensor1d(ratioWindowMask(logRatio, OBJECTIVE));
    const plain = tf.tidy(() => parlObjectiveLoss(policy, batch, mask, OBJECTIVE).dataSync()[0] as number);
    const bonus = tf.tidy(() => parlObjectiveLoss(policy, batch, mask, { ...OBJECTIVE, modeEntropy: 0.25 }).dataSync()[0] as number);
    const logits = tf.tidy(() => policy.logits(batch.x).arraySync() as number[][]);
    let entropy = 0;
    for (const row of logits) {
      const p = 1 / (1 + Math.exp((row[1] as number) - (row[0] as number)));
      entropy -= p * Math.log(p) + (1 - p) * Math.log(1 - p);
    }
    expect(bonus).toBeCloseTo(plain - (0.25 * entropy) / logits.length, 5);
    mask.dispose();
    disposeBatch(batch);
    policy.dispose();
  });

  it('gives a decision outside the window only the τ gradient: its advantage does not matter', () => {
    const policy = MlpPolicy.create({ ...DEFAULT_MLP_SPEC, hidden: [8] }, 0.7, 4);
    const { batch, logRatio } = randomBatch(10, policy, 12);
    const maskValues = ratioWindowMask(logRatio, OBJECTIVE);
    const outside = maskValues.indexOf(0);
    expect(outside).toBeGreaterThanOrEqual(0);
    const mask = tf.tensor1d(maskValues);
    const advantage = batch.advantage.dataSync().slice() as Float32Array;
    advantage[outside] = (advantage[outside] as number) + 5;
    const shifted: ObjectiveBatch = { ...batch, advantage: tf.tensor1d(advantage) };
    const a = parlObjectiveGradients(policy, batch, mask, OBJECTIVE);
    const b = parlObjectiveGradients(policy, shifted, mask, OBJECTIVE);
    for (const v of policy.variables) {
      expect(Array.from(b.grads[v.name]?.dataSync() ?? [])).toEqual(Array.from(a.grads[v.name]?.dataSync() ?? []));
    }
    // …while inside the window the advantage does move the gradient.
    const inside = maskValues.indexOf(1);
    advantage[inside] = (advantage[inside] as number) + 5;
    const moved: ObjectiveBatch = { ...batch, advantage: tf.tensor1d(advantage) };
    const c = parlObjectiveGradients(policy, moved, mask, OBJECTIVE);
    const first = policy.variables[0] as tf.Variable;
    expect(Array.from(c.grads[first.name]?.dataSync() ?? [])).not.toEqual(Array.from(a.grads[first.name]?.dataSync() ?? []));
    for (const r of [a, b, c]) tf.dispose([r.value, ...Object.values(r.grads)]);
    tf.dispose([mask, shifted.advantage, moved.advantage]);
    disposeBatch(batch);
    policy.dispose();
  });
});
