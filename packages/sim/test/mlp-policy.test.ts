import { tf } from '@parl/gpu';
import { describe, expect, it } from 'vitest';
import { MlpPolicy, episodeSeeds, resolveEnvConfig, runEpisodes } from '../src/index.js';
import { DEFAULT_MLP_SPEC, disposeActionTensors } from '../src/policies/mlp-policy.js';
import { FEATURE_COUNT } from '../src/internal/engine/features.js';
import { denseForward, denseRowOutputs, type DenseLayer } from '../src/internal/policies/mlp-forward.js';

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

  it('computes the other outputs of the last layer for one row later, to the same bits as all at once', () => {
    const sizes = [FEATURE_COUNT, 32, 32, 18];
    const layers: DenseLayer[] = sizes.slice(1).map((fanOut, l) => {
      const fanIn = sizes[l] as number;
      return {
        fanIn,
        fanOut,
        weights: Float32Array.from({ length: fanIn * fanOut }, (_, i) => Math.sin(i * 0.71 + l) * 0.4),
        bias: Float32Array.from({ length: fanOut }, (_, i) => Math.cos(i + l) * 0.1),
      };
    });
    const n = 7;
    const x = Float32Array.from({ length: n * FEATURE_COUNT }, (_, i) => Math.sin(i * 0.37) * 0.8);
    const full = new Float32Array(n * 18);
    denseForward(layers, x, n, full);
    const partial = new Float32Array(n * 18);
    const scratch = denseForward(layers, x, n, partial, [], 2);
    for (let r = 0; r < n; r++) {
      expect(partial[r * 18 + 2]).toBe(0);
      expect([partial[r * 18], partial[r * 18 + 1]]).toEqual([full[r * 18], full[r * 18 + 1]]);
    }
    for (let r = 0; r < n; r += 2) denseRowOutputs(layers[2] as DenseLayer, scratch[1] as Float32Array, r, 2, 18, partial);
    for (let r = 0; r < n; r++) {
      const row = Array.from(partial.subarray(r * 18, r * 18 + 18));
      expect(row).toEqual(r % 2 === 0 ? Array.from(full.subarray(r * 18, r * 18 + 18)) : [full[r * 18], full[r * 18 + 1], ...new Array<number>(16).fill(0)]);
    }
  });

  it('acts on the host with the outputs of the tfjs network, also after its weights change', () => {
    const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.6, 3);
    const n = 40;
    const x = Float32Array.from({ length: n * FEATURE_COUNT }, (_, i) => Math.sin(i * 0.37) * 0.8);
    const compare = (): void => {
      const layers: DenseLayer[] = [];
      for (let l = 0; l < policy.variables.length; l += 2) {
        const w = policy.variables[l] as tf.Variable;
        layers.push({ fanIn: w.shape[0] as number, fanOut: w.shape[1] as number, weights: w.dataSync() as Float32Array, bias: (policy.variables[l + 1] as tf.Variable).dataSync() as Float32Array });
      }
      const host = new Float32Array(n * policy.outputSize);
      denseForward(layers, x, n, host);
      const reference = tf.tidy(() => policy.logits(tf.tensor2d(x, [n, FEATURE_COUNT])).dataSync() as Float32Array);
      for (let i = 0; i < host.length; i++) expect(Math.abs((host[i] as number) - (reference[i] as number))).toBeLessThan(1e-5);
    };
    compare();
    // a changed weight must reach the acting copy: greedy actions follow the new weights
    const env = resolveEnvConfig({});
    const seeds = Array.from({ length: 20 }, (_, i) => episodeSeeds(9, i));
    const before = runEpisodes(env, policy, seeds, { greedy: true });
    const last = policy.variables.length - 1;
    const bias = policy.variables[last] as tf.Variable;
    const shifted = Float32Array.from(bias.dataSync() as Float32Array);
    shifted[0] = (shifted[0] as number) - 20; // the direct-call logit: now it always launches
    bias.assign(tf.tensor1d(shifted));
    compare();
    const after = runEpisodes(env, policy, seeds, { greedy: true });
    expect(before.every((r) => r.num_subagents === 0)).toBe(true);
    expect(after.every((r) => r.num_subagents > 0)).toBe(true);
    policy.dispose();
  });

  it('gives the same log-probabilities with the width and share heads computed for launch rows only', () => {
    const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.5, 4);
    const n = 12;
    const L = 5;
    const A = policy.actionSize;
    const x = Float32Array.from({ length: n * FEATURE_COUNT }, (_, i) => ((i * 7) % 11) / 11);
    for (let r = 0; r < n; r++) x[r * FEATURE_COUNT] = (3 + r) / 32; // ready subtasks
    const hot = new Float32Array(n * A);
    for (let r = 0; r < n; r++) {
      if (r < L) {
        hot[r * A + 1] = 1;
        hot[r * A + 2 + ((r * 13) % 100)] = 1;
        hot[r * A + 2 + 100 + (r % 3)] = 1;
      } else {
        hot[r * A] = 1;
      }
    }
    const xt = tf.tensor2d(x, [n, FEATURE_COUNT]);
    const ht = tf.tensor2d(hot, [n, A]);
    const prepared = policy.actionTensors(x, hot, L);
    const all = tf.tidy(() => policy.logProb(xt, ht)).dataSync() as Float32Array;
    const launchesOnly = tf.tidy(() => policy.logProb(xt, ht, prepared)).dataSync() as Float32Array;
    disposeActionTensors(prepared);
    tf.dispose([xt, ht]);
    for (let r = 0; r < n; r++) expect(launchesOnly[r]).toBeCloseTo(all[r] as number, 5);
    policy.dispose();
  });
});
