import { computeReward, criticalSteps, resolveRewardConfig } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy } from '../src/index.js';
import { budgetToReach, evaluate, heldOutSeeds } from '../src/internal/evaluation/evaluation.js';
import { episodeMeans, scoreEpisodes } from '../src/internal/evaluation/metrics.js';

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

describe('the cost of sub-agents', () => {
  it('averages core\'s total steps and the sub-agents launched per episode', () => {
    const env = resolveEnvConfig({ family: 'mixed' });
    const records = runEpisodes(env, scriptedPolicy('max-parallel'), Array.from({ length: 30 }, (_, i) => episodeSeeds(9, i)), { greedy: true });
    const means = episodeMeans(scoreEpisodes(records, resolveRewardConfig({})));
    const work = records.reduce((a, r) => a + criticalSteps(r.stages).total_steps, 0) / records.length;
    expect(means.total_steps).toBeCloseTo(work, 9);
    expect(means.subagents).toBeCloseTo(records.reduce((a, r) => a + r.num_subagents, 0) / records.length, 9);
    // Idle sub-agents are work too: max-parallel does far more of it than it needs.
    expect(means.total_steps).toBeGreaterThan(means.critical_steps * 5);
  });
});

describe('evaluate', () => {
  it('measures every scripted baseline on the same tasks and says which one the policy coincides with', () => {
    const env = resolveEnvConfig({ family: 'mixed', budget: 120 });
    const e = evaluate(scriptedPolicy('balanced'), env, 3, 40, [0.3, 0.5]);
    expect(e.baselines.map((b) => [b.policy, b.same_as_trained])).toEqual([
      ['serial', false],
      ['max-parallel', false],
      ['balanced', true],
    ]);
    const balanced = e.baselines[2];
    expect(balanced?.latency).toEqual(e.latency_to_target.map((r) => r.policy));
    expect(balanced?.critical_steps).toBe(e.final.critical_steps);
    // Serial launches nobody: its finish rate does not apply.
    expect(e.baselines[0]?.finish_rate).toBeNull();
    expect(e.baselines[0]?.subagents).toBe(0);
    expect(e.baseline_serial.total_steps).toBeCloseTo(e.baseline_serial.critical_steps, 9);
  });

  it('reports no finish rate (null, not 1) for a trained policy that launches no sub-agent, as for the serial baseline', () => {
    const e = evaluate(scriptedPolicy('serial'), resolveEnvConfig({ family: 'wide', budget: 120 }), 3, 20, [0.3]);
    expect(e.final.subagents).toBe(0);
    expect(e.final.finish_rate).toBeNull();
    expect(e.final.finish_rate).toBe(e.baselines[0]?.finish_rate);
    const launching = evaluate(scriptedPolicy('balanced'), resolveEnvConfig({ family: 'wide', budget: 120 }), 3, 20, [0.3]);
    expect(launching.final.finish_rate).toBeGreaterThan(0);
  });
});
