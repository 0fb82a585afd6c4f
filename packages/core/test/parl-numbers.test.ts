import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finishRate, groupedAdvantages, grpoAdvantages, meanFinishRate, pooledFinishRate, rFinish, subagentCounts } from '../src/index.js';
import { messageOf } from './support.js';

describe('one GRPO advantage (issue 31)', () => {
  it('groupedAdvantages is grpoAdvantages group by group, bit for bit, with either scale', () => {
    const rewards = fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), (K, groups) =>
        fc.assert(
          fc.property(fc.array(rewards, { minLength: K * groups, maxLength: K * groups }), (flat) => {
            const all = Array.from(groupedAdvantages(flat, K));
            const none = Array.from(groupedAdvantages(flat, K, { scale: 'none' }));
            for (let j = 0; j < groups; j++) {
              const group = flat.slice(j * K, j * K + K);
              expect(all.slice(j * K, j * K + K)).toEqual(grpoAdvantages(group));
              expect(none.slice(j * K, j * K + K)).toEqual(grpoAdvantages(group, { scale: 'none' }));
              // scale none is reward minus the group mean
              const mean = group.reduce((a, b) => a + b, 0) / K;
              expect(none.slice(j * K, j * K + K)).toEqual(group.map((r) => r - mean));
            }
          }),
          { numRuns: 10 },
        ),
      ),
      { numRuns: 20 },
    );
  });

  it('writes in place and names a bad group size or scale', () => {
    const rewards = Float64Array.of(1, 0, 0.5, 0.5);
    expect(Array.from(groupedAdvantages(rewards, 2, { scale: 'none' }, rewards))).toEqual([0.5, -0.5, 0, 0]);
    expect(messageOf(() => groupedAdvantages([1, 2, 3], 2))).toBe('groupSize must be a positive integer dividing the 3 rewards, got 2');
    expect(messageOf(() => grpoAdvantages([1], { scale: 'zscore' as never }))).toMatch(/^scale must be one of/);
  });
});

describe('one finish-rate definition, a name per aggregate (issue 31)', () => {
  it('finishRate is completed / assigned, null when nothing was assigned; r_finish puts 0 there', () => {
    expect(finishRate(3, 4)).toBe(0.75);
    expect(finishRate(0, 0)).toBeNull();
    expect(rFinish(0, 0)).toBe(0);
    expect(rFinish(3, 4)).toBe(finishRate(3, 4));
    expect(messageOf(() => finishRate(5, 4))).toBe('completed_subtasks must be at most assigned_subtasks (4), got 5');
    expect(subagentCounts({ stages: [{ main_steps: 1, sub_steps: [1, { steps: 1, finished: false }] }] }).finish_rate).toBe(0.5);
  });

  it('the per-episode mean weighs episodes, the pooled rate weighs sub-agents', () => {
    const episodes = [
      { assigned: 1, completed: 1 },
      { assigned: 3, completed: 0 },
      { assigned: 0, completed: 0 },
    ];
    expect(meanFinishRate(episodes)).toBe(0.5);
    expect(pooledFinishRate(episodes)).toBe(0.25);
    expect(meanFinishRate([{ assigned: 0, completed: 0 }])).toBeNull();
    expect(pooledFinishRate([])).toBeNull();
    expect(messageOf(() => pooledFinishRate([{ assigned: 1, completed: 2 }]))).toMatch(/^completed_subtasks must be at most/);
  });
});
