import { computeReward, validateRecord } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('simulate', () => {
  it('returns one valid spec §5 record per episode, reproducible from the seed', async () => {
    const a = await simulate({ policy: 'balanced', family: 'deep', episodes: 30, seed: 12 });
    const b = await simulate({ policy: 'balanced', family: 'deep', episodes: 30, seed: 12, batchSize: 7 });
    expect(a).toHaveLength(30);
    expect(b).toEqual(a);
    expect(a.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => `episode-${i}`));
    for (const r of a) {
      expect(r.family).toBe('deep');
      expect(() => validateRecord(r)).not.toThrow();
    }
    const c = await simulate({ policy: 'balanced', family: 'deep', episodes: 30, seed: 13 });
    expect(c).not.toEqual(a);
  });

  it('applies environment overrides', async () => {
    const records = await simulate({ policy: 'serial', episodes: 20, env: { budget: 30 } });
    expect(records.every((r) => r.end_reason === 'budget')).toBe(true);
    // the record keeps what was solved before the cut; core's reward under the budget fails it
    expect(records.every((r) => computeReward(r, { budget: 30, onBudget: 'fail', step: 0 }).r_perf === 0)).toBe(true);
  });

  it('rejects bad options, naming them', async () => {
    await expect(simulate({ policy: 'balanced', episodes: 0 })).rejects.toThrow(/episodes must be an integer ≥ 1, got 0/);
    await expect(simulate({ policy: 'nope' as 'serial', episodes: 1 })).rejects.toThrow(/policy must be one of/);
    await expect(simulate({ policy: 'serial', episodes: 1, env: { costMean: -2 } })).rejects.toThrow(/env\.costMean must be a finite number > 0, got -2/);
  });
});
