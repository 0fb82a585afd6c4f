import { computeReward, resolveRewardConfig } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { budgetToReach, episodeSeeds, heldOutSeeds, resolveEnvConfig, runEpisodes, scoreEpisodes, scriptedPolicy } from '../src/index.js';

describe('budgetToReach', () => {
  const env = resolveEnvConfig({ family: 'wide' });
  const seeds = Array.from({ length: 60 }, (_, i) => episodeSeeds(31, i));
  const score = (name: 'serial' | 'balanced') => scoreEpisodes(runEpisodes(env, scriptedPolicy(name), seeds, { greedy: true }), resolveRewardConfig({}));

  it('is the smallest budget at which core\'s budgeted mean r_perf reaches the target', () => {
    const scored = score('serial');
    const meanAt = (k: number) =>
      scored.reduce((a, s) => a + computeReward(s.record, { budget: k, onBudget: 'fail', step: 0 }).r_perf, 0) / scored.length;
    const candidates = [...new Set(scored.map((s) => s.criticalSteps))].sort((a, b) => a - b);
    for (const target of [0.3, 0.5, 0.7]) {
      const expected = candidates.find((k) => meanAt(k) >= target) ?? null;
      expect(budgetToReach(scored, target)).toBe(expected);
    }
    expect(budgetToReach(scored, 0.99)).toBeNull();
  });

  it('needs a far smaller budget for a parallel policy than for serial', () => {
    const serial = budgetToReach(score('serial'), 0.5) as number;
    const balanced = budgetToReach(score('balanced'), 0.5) as number;
    expect(balanced * 3).toBeLessThan(serial);
  });

  it('draws held-out tasks from their own stream', () => {
    const held = heldOutSeeds(1, 5);
    expect(held).toEqual(heldOutSeeds(1, 5));
    expect(held.map((s) => s.taskSeed)).not.toEqual(Array.from({ length: 5 }, (_, i) => episodeSeeds(1, i).taskSeed));
  });
});
