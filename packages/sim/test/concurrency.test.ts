import { applyBudget, criticalSteps, validateStages } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { episodeSeeds, resolveEnvConfig, runEpisodes, scriptedPolicy } from '../src/index.js';

const seeds = (n: number, seed = 4) => Array.from({ length: n }, (_, i) => episodeSeeds(seed, i));

describe('a concurrency limit C', () => {
  it('runs a group larger than C as waves of at most C, later waves with main_steps 0', () => {
    const env = resolveEnvConfig({ family: 'wide', concurrency: 16 });
    const records = runEpisodes(env, scriptedPolicy('max-parallel'), seeds(20), { greedy: true });
    for (const record of records) {
      const waves = record.stages.slice(0, 7);
      expect(waves.map((s) => (s.sub_steps ?? []).length)).toEqual([16, 16, 16, 16, 16, 16, 4]);
      expect(waves.map((s) => s.main_steps)).toEqual([1, 0, 0, 0, 0, 0, 0]);
      expect(record.num_subagents).toBeGreaterThanOrEqual(100);
    }
  });

  it('makes idle sub-agents cost latency', () => {
    const free = runEpisodes(resolveEnvConfig({ family: 'wide' }), scriptedPolicy('max-parallel'), seeds(50), { greedy: true });
    const limited = runEpisodes(resolveEnvConfig({ family: 'wide', concurrency: 16 }), scriptedPolicy('max-parallel'), seeds(50), { greedy: true });
    const mean = (rs: typeof free) => rs.reduce((a, r) => a + criticalSteps(r.stages).critical_steps, 0) / rs.length;
    // Five idle waves of one step each at least, on top of a second working wave.
    expect(mean(limited)).toBeGreaterThan(mean(free) + 5);
  });

  it('changes nothing when every group fits', () => {
    const a = runEpisodes(resolveEnvConfig({ family: 'mixed' }), scriptedPolicy('balanced'), seeds(40), { greedy: true });
    const b = runEpisodes(resolveEnvConfig({ family: 'mixed', concurrency: 100 }), scriptedPolicy('balanced'), seeds(40), { greedy: true });
    expect(b).toEqual(a);
  });

  it('cuts at the wave that crosses the budget, where core cuts', () => {
    const env = resolveEnvConfig({ family: 'wide', concurrency: 4, budget: 30 });
    const records = runEpisodes(env, scriptedPolicy('max-parallel'), seeds(30), { greedy: true });
    let cut = 0;
    for (const record of records) {
      const applied = applyBudget(validateStages(record.stages), 30);
      expect(applied.within_budget).toBe(record.end_reason !== 'budget');
      // The crossing wave is the record's last stage: no wave runs after the cut.
      if (!applied.within_budget) {
        cut++;
        expect(criticalSteps(record.stages.slice(0, -1)).critical_steps).toBeLessThanOrEqual(30);
      }
    }
    expect(cut).toBeGreaterThan(20);
  });

  it('is validated', () => {
    expect(() => resolveEnvConfig({ concurrency: 0 })).toThrow(/env\.concurrency/);
    expect(() => resolveEnvConfig({ concurrency: 2.5 })).toThrow(/env\.concurrency/);
    expect(resolveEnvConfig({ concurrency: null }).concurrency).toBeNull();
  });
});
