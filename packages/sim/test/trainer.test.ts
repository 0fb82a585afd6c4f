import { tf } from '@parl/gpu';
import { describe, expect, it } from 'vitest';
import { getPreset, resolveTrainingConfig, train, type TrainingProgress } from '../src/index.js';

const tiny = (seed = 1) =>
  resolveTrainingConfig({ seed, steps: 6, tasksPerStep: 3, rolloutsPerTask: 4, evaluation: { episodes: 16 } }, getPreset('parl'));

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
