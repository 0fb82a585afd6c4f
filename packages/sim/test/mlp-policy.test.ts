import { tf } from '@parl/gpu';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MLP_SPEC,
  FEATURE_COUNT,
  MlpPolicy,
  Rng,
  episodeSeeds,
  resolveEnvConfig,
  runEpisodes,
} from '../src/index.js';

function randomBatch(n: number, policy: MlpPolicy, seed: number) {
  const rng = new Rng(seed);
  const A = policy.outputSize;
  const W = policy.spec.widthGrid.length;
  const S = policy.spec.shareGrid.length;
  const x = Float32Array.from({ length: n * FEATURE_COUNT }, () => rng.uniform());
  const hot = new Float32Array(n * A);
  const active = new Float32Array(n * A);
  const coefficient = Float32Array.from({ length: n }, () => rng.uniform() * 2 - 1);
  for (let i = 0; i < n; i++) {
    const launch = rng.uniform() < 0.5;
    hot[i * A + (launch ? 1 : 0)] = 1;
    active[i * A] = 1;
    active[i * A + 1] = 1;
    if (launch) {
      hot[i * A + 2 + rng.int(0, W - 1)] = 1;
      hot[i * A + 2 + W + rng.int(0, S - 1)] = 1;
      active.fill(1, i * A + 2, (i + 1) * A);
    }
  }
  return {
    x: tf.tensor2d(x, [n, FEATURE_COUNT]),
    hot: tf.tensor2d(hot, [n, A]),
    active: tf.tensor2d(active, [n, A]),
    c: tf.tensor1d(coefficient),
  };
}

describe('MlpPolicy', () => {
  it('starts serial-leaning: direct calls with the configured probability', () => {
    const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.9, 1);
    const env = resolveEnvConfig({});
    const records = runEpisodes(env, policy, Array.from({ length: 200 }, (_, i) => episodeSeeds(5, i)), { greedy: false });
    let direct = 0;
    let stages = 0;
    for (const r of records) {
      for (const s of r.stages) {
        stages++;
        if ((s.sub_steps ?? []).length === 0) direct++;
      }
    }
    expect(direct / stages).toBeGreaterThan(0.85);
    expect(direct / stages).toBeLessThan(0.95);
    policy.dispose();
  });

  it('back-propagates the gradient of Σ c·log π that finite differences measure', () => {
    const policy = MlpPolicy.create({ ...DEFAULT_MLP_SPEC, hidden: [8] }, 0.7, 3);
    const { x, hot, active, c } = randomBatch(12, policy, 11);
    const objective = (): number =>
      tf.tidy(() => tf.sum(tf.mul(policy.logProb(x, hot), c)).dataSync()[0] as number);
    const grads = policy.logProbGradients(x, hot, active, c);
    const eps = 1e-2;
    for (const v of policy.variables) {
      const g = grads[v.name]?.dataSync() as Float32Array;
      const values = v.dataSync().slice() as Float32Array;
      for (const idx of [0, Math.floor(values.length / 2), values.length - 1]) {
        const plus = values.slice();
        plus[idx] = (plus[idx] as number) + eps;
        v.assign(tf.tensor(plus, v.shape));
        const up = objective();
        const minus = values.slice();
        minus[idx] = (minus[idx] as number) - eps;
        v.assign(tf.tensor(minus, v.shape));
        const down = objective();
        v.assign(tf.tensor(values, v.shape));
        const numeric = (up - down) / (2 * eps);
        expect(Math.abs(numeric - (g[idx] as number))).toBeLessThan(2e-3 + 2e-2 * Math.abs(numeric));
      }
    }
    for (const name of Object.keys(grads)) grads[name]?.dispose();
    tf.dispose([x, hot, active, c]);
    policy.dispose();
  });

  it('acts the same batched and one episode at a time', () => {
    const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.6, 2);
    const env = resolveEnvConfig({ family: 'mixed' });
    const seeds = Array.from({ length: 30 }, (_, i) => episodeSeeds(8, i));
    const one = runEpisodes(env, policy, seeds, { greedy: false, batchSize: 1 });
    const many = runEpisodes(env, policy, seeds, { greedy: false, batchSize: 30 });
    expect(many).toEqual(one);
    policy.dispose();
  });

  it('does not leak tensors while acting', () => {
    const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.6, 2);
    const env = resolveEnvConfig({});
    const seeds = Array.from({ length: 20 }, (_, i) => episodeSeeds(8, i));
    runEpisodes(env, policy, seeds, { greedy: false });
    const before = tf.memory().numTensors;
    runEpisodes(env, policy, seeds, { greedy: true });
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });
});
