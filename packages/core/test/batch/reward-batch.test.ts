import { describe, expect, it } from 'vitest';
import { ParlInputError, allocateRewardBatchOutput, computeReward, resolveRewardConfig, rewardBatch } from '../../src/index.js';
import { messageOf } from '../support.js';

describe('rewardBatch', () => {
  it('computes the spec §3 fields per episode', () => {
    const out = rewardBatch({
      numSubagents: [0, 25, 100],
      assignedSubtasks: [0, 25, 50],
      completedSubtasks: [0, 20, 50],
      rPerf: [0.5, 0.8, 1],
      trainingStep: [0, 5000, 10000],
    });
    // λ = 0.1, 0.05, 0; r_parallel = 0, 0.25, 1; r_finish = 0 (nothing assigned), 0.8, 1
    expect(Array.from(out.lambda1)).toEqual([0.1, 0.05, 0]);
    expect(Array.from(out.lambda2)).toEqual([0.1, 0.05, 0]);
    expect(Array.from(out.r_parallel)).toEqual([0, 0.25, 1]);
    expect(Array.from(out.r_finish)).toEqual([0, 0.8, 1]);
    expect(Array.from(out.r_perf)).toEqual([0.5, 0.8, 1]);
    // 0.5; 0.05·0.25 + 0.05·0.8 + 0.8 = 0.8525; 0 + 0 + 1 = 1
    expect(out.total_reward[0]).toBe(0.5);
    expect(out.total_reward[1]).toBeCloseTo(0.8525, 15);
    expect(out.total_reward[2]).toBe(1);
  });

  it('equals computeReward one at a time, with typed arrays, log shape and a config', () => {
    const config = { parallelShape: 'log' as const, maxSubagents: 40, lambda1: 'cosine:0.2:0:800', lambda2: 'step:0.1,0.05:300' };
    const n = new Int32Array([0, 3, 40, 77]);
    const a = new Uint16Array([0, 4, 40, 60]);
    const c = new Uint8Array([0, 1, 39, 60]);
    const p = new Float64Array([0.1, -1, 0.75, 2]);
    const s = new Float32Array([0, 250, 799, 5000]);
    const out = rewardBatch({ numSubagents: n, assignedSubtasks: a, completedSubtasks: c, rPerf: p, trainingStep: s }, config);
    for (let i = 0; i < n.length; i++) {
      const one = computeReward(
        { num_subagents: n[i] as number, assigned_subtasks: a[i] as number, completed_subtasks: c[i] as number, r_perf: p[i] as number, training_step: s[i] as number },
        config,
      );
      expect(out.total_reward[i]).toBe(one.total_reward);
      expect(out.r_parallel[i]).toBe(one.r_parallel);
      expect(out.r_finish[i]).toBe(one.r_finish);
      expect(out.lambda1[i]).toBe(one.lambda1);
      expect(out.lambda2[i]).toBe(one.lambda2);
    }
  });

  it('defaults: assigned = numSubagents, completed = assigned, step = config.step or 0', () => {
    const out = rewardBatch({ numSubagents: [10], rPerf: [0] });
    // step 0: λ = 0.1; r_parallel = 10/100; r_finish = 10/10 → 0.1·0.1 + 0.1·1 = 0.11
    expect(out.r_finish[0]).toBe(1);
    expect(out.total_reward[0]).toBeCloseTo(0.11, 15);
    const later = rewardBatch({ numSubagents: [10], rPerf: [0] }, { step: 10000 });
    expect(later.total_reward[0]).toBe(0);
  });

  it('config.step overrides per-episode steps, as it overrides training_step', () => {
    const out = rewardBatch({ numSubagents: [10, 10], rPerf: [0, 0], trainingStep: [0, 2000] }, { step: 5000 });
    expect(Array.from(out.lambda1)).toEqual([0.05, 0.05]);
    expect(out.total_reward[1]).toBe(computeReward({ num_subagents: 10, r_perf: 0, training_step: 2000 }, { step: 5000 }).total_reward);
  });

  it('writes into preallocated outputs that may be longer than the batch', () => {
    const out = allocateRewardBatchOutput(5);
    expect(Object.keys(out).sort()).toEqual([
      'finish_component', 'instantiation_component', 'lambda1', 'lambda2', 'r_finish', 'r_parallel', 'r_perf', 'task_component', 'total_reward',
    ]);
    out.total_reward.fill(-7);
    const got = rewardBatch({ numSubagents: [50, 100], rPerf: [0, 0] }, resolveRewardConfig({ lambda1: 'constant:1', lambda2: 'constant:0' }), out);
    expect(got).toBe(out);
    expect(Array.from(out.total_reward)).toEqual([0.5, 1, -7, -7, -7]);
  });

  it('an empty batch is fine', () => {
    expect(rewardBatch({ numSubagents: [], rPerf: [] }).total_reward.length).toBe(0);
  });

  it('bad lengths name the array and the expected length', () => {
    expect(messageOf(() => rewardBatch({ numSubagents: [1, 2], rPerf: [1] }))).toBe('rPerf.length must be 2 (the length of numSubagents), got 1');
    expect(messageOf(() => rewardBatch({ numSubagents: [1], rPerf: [1], assignedSubtasks: [1, 2] }))).toBe(
      'assignedSubtasks.length must be 1 (the length of numSubagents), got 2',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [1], rPerf: [1], completedSubtasks: [] }))).toBe(
      'completedSubtasks.length must be 1 (the length of numSubagents), got 0',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [1], rPerf: [1], trainingStep: [1, 1, 1] }))).toBe(
      'trainingStep.length must be 1 (the length of numSubagents), got 3',
    );
    const small = allocateRewardBatchOutput(1);
    expect(messageOf(() => rewardBatch({ numSubagents: [1, 2], rPerf: [1, 1] }, {}, small))).toBe('out.total_reward.length must be at least 2, got 1');
  });

  it('bad values name the array and index; nothing becomes NaN', () => {
    expect(messageOf(() => rewardBatch({ numSubagents: [1, -1], rPerf: [0, 0] }))).toBe('numSubagents[1] must be a finite number ≥ 0, got -1');
    expect(messageOf(() => rewardBatch({ numSubagents: new Float32Array([Number.NaN]), rPerf: [0] }))).toBe(
      'numSubagents[0] must be a finite number ≥ 0, got NaN',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [1], assignedSubtasks: [Number.POSITIVE_INFINITY], rPerf: [0] }))).toBe(
      'assignedSubtasks[0] must be a finite number ≥ 0, got Infinity',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [3, 3], assignedSubtasks: [3, 2], completedSubtasks: [3, 3], rPerf: [0, 0] }))).toBe(
      'completedSubtasks[1] must be a finite number between 0 and assignedSubtasks[1] = 2, got 3',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [3], completedSubtasks: [Number.NaN], rPerf: [0] }))).toBe(
      'completedSubtasks[0] must be a finite number between 0 and assignedSubtasks[0] = 3, got NaN',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [0, 0, 0], rPerf: [0, 1, Number.NEGATIVE_INFINITY] }))).toBe(
      'rPerf[2] must be a finite number, got -Infinity',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [0, 0], rPerf: [0, 0], trainingStep: [5, -1] }))).toBe(
      'trainingStep[1] must be a finite training step ≥ 0, got -1',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [0], rPerf: [0] }, { maxSubagents: 0 }))).toBe('maxSubagents must be a finite number > 0, got 0');
    // strings in plain arrays are not coerced
    const str = (x: string) => x as unknown as number;
    expect(messageOf(() => rewardBatch({ numSubagents: [str('5')], rPerf: [0] }))).toBe('numSubagents[0] must be a finite number ≥ 0, got "5"');
    expect(messageOf(() => rewardBatch({ numSubagents: [5], assignedSubtasks: [str('5')], rPerf: [0] }))).toBe(
      'assignedSubtasks[0] must be a finite number ≥ 0, got "5"',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [5], completedSubtasks: [str('1')], rPerf: [0] }))).toBe(
      'completedSubtasks[0] must be a finite number between 0 and assignedSubtasks[0] = 5, got "1"',
    );
    expect(messageOf(() => rewardBatch({ numSubagents: [5], rPerf: [str('0.5')] }))).toBe('rPerf[0] must be a finite number, got "0.5"');
    expect(messageOf(() => rewardBatch({ numSubagents: [5], rPerf: [0], trainingStep: [str('7')] }))).toBe(
      'trainingStep[0] must be a finite training step ≥ 0, got "7"',
    );
  });
});
