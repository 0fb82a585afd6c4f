import { tf } from '@parl/gpu';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MLP_SPEC,
  MlpPolicy,
  episodeSeeds,
  resolveEnvConfig,
  runEpisodes,
} from '../src/index.js';

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
});
