import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParlInputError, REWARD_BATCH_FIELDS, rewardBatch, type RewardConfig } from '@parl/core';
import { initBackend, rewardKernel, rewardOp, tf } from '../src/index.js';
import { f32 } from './arbitraries.js';
import { maxRelativeError, TEST_BACKENDS, TOLERANCE } from './backends.js';


/** B episodes with valid counts, completed ≤ assigned, and float32-exact values. */
const episodes = fc.integer({ min: 1, max: 40 }).chain((size) =>
  fc.record({
    numSubagents: fc.array(fc.integer({ min: 0, max: 150 }), { minLength: size, maxLength: size }),
    assigned: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: size, maxLength: size }),
    done: fc.array(f32(0, 1), { minLength: size, maxLength: size }),
    rPerf: fc.array(f32(-2, 2), { minLength: size, maxLength: size }),
    trainingStep: fc.array(fc.integer({ min: 0, max: 15000 }), { minLength: size, maxLength: size }),
  }),
);

const schedules = fc.constantFrom(
  'linear:0.1:0:10000',
  'cosine:0.2:0:8000',
  'exponential:0.1:0.001:10000',
  'step:0.1,0.05,0:3000,6000',
  'piecewise:0=0,500=0.1,10000=0',
  'constant:0.07',
);

describe.each(TEST_BACKENDS)('rewardKernel on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('equals @parl/core rewardBatch on random episodes and schedules (relative error ≤ 1e-5)', () => {
    fc.assert(
      fc.property(episodes, schedules, schedules, fc.constantFrom('linear', 'log'), (e, l1, l2, shape) => {
        const input = {
          numSubagents: Float32Array.from(e.numSubagents),
          assignedSubtasks: Float32Array.from(e.assigned),
          completedSubtasks: Float32Array.from(e.assigned.map((a, i) => Math.floor(a * (e.done[i] as number)))),
          rPerf: Float32Array.from(e.rPerf),
          trainingStep: Float32Array.from(e.trainingStep),
        };
        const config: RewardConfig = { lambda1: l1, lambda2: l2, parallelShape: shape as 'linear' | 'log', maxSubagents: 100 };
        const expected = rewardBatch(input, config);
        const actual = rewardKernel(input, config, { output: 'array' });
        // total_reward is a sum that may cancel: its error is relative to the size of its terms.
        const scales = expected.total_reward.map(
          (_, i) =>
            Math.abs((expected.lambda1[i] as number) * (expected.r_parallel[i] as number)) +
            Math.abs((expected.lambda2[i] as number) * (expected.r_finish[i] as number)) +
            Math.abs(expected.r_perf[i] as number),
        );
        expect(maxRelativeError(actual.total_reward, expected.total_reward, scales)).toBeLessThanOrEqual(TOLERANCE);
        expect(Object.keys(actual).sort()).toEqual([...REWARD_BATCH_FIELDS].sort());
        for (const key of ['r_parallel', 'r_finish', 'r_perf', 'lambda1', 'lambda2', 'instantiation_component', 'finish_component', 'task_component'] as const) {
          expect(maxRelativeError(actual[key], expected[key]), key).toBeLessThanOrEqual(TOLERANCE);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('gives the spec example numbers, with defaults for assigned/completed and a shared step', () => {
    const r = rewardKernel({ numSubagents: [0, 25, 100], rPerf: [0.5, 0.8, 1], trainingStep: [0, 5000, 10000] }, {}, { output: 'array' });
    expect(Array.from(r.total_reward)).toEqual([0.5, 0.8625, 1].map(Math.fround));
    const shared = rewardKernel({ numSubagents: [25], completedSubtasks: [20], assignedSubtasks: [25], rPerf: [0.8] }, { step: 5000 }, { output: 'array' });
    expect(shared.total_reward[0]).toBeCloseTo(0.8525, 6);
    expect(shared.lambda1[0]).toBeCloseTo(0.05, 7);
  });

  it('accepts tensors (any numeric dtype) and returns tensors by default', () => {
    const before = tf.memory().numTensors;
    const n = tf.tensor1d([10, 200], 'int32');
    const perf = tf.tensor1d([0.25, -1]);
    const steps = tf.tensor1d([0, 20000]);
    const out = rewardKernel({ numSubagents: n, rPerf: perf, trainingStep: steps });
    expect(out.total_reward).toBeInstanceOf(tf.Tensor);
    expect(out.total_reward.shape).toEqual([2]);
    const total = out.total_reward.dataSync();
    expect(total[0]).toBeCloseTo(0.1 * 0.1 + 0.1 * 1 + 0.25, 6);
    expect(total[1]).toBeCloseTo(-1, 6);
    for (const t of Object.values(out)) t.dispose();
    n.dispose();
    perf.dispose();
    steps.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('leaks no tensor, on success or on a validation error', () => {
    const before = tf.memory().numTensors;
    rewardKernel({ numSubagents: [1, 2, 3], rPerf: [0, 0, 0] }, {}, { output: 'array' });
    expect(tf.memory().numTensors).toBe(before);
    expect(() => rewardKernel({ numSubagents: [1, 2, 3], rPerf: [0, Number.NaN, 0] })).toThrow(ParlInputError);
    expect(tf.memory().numTensors).toBe(before);
    const perf = tf.tensor1d([0, 1, Number.POSITIVE_INFINITY]);
    expect(() => rewardKernel({ numSubagents: [1, 2, 3], rPerf: perf }, {}, { output: 'array' })).toThrow('rPerf[2] must be a finite number, got Infinity');
    perf.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('names the bad field, index, value and expectation', () => {
    expect(() => rewardKernel({ numSubagents: [1, -2], rPerf: [0, 0] })).toThrow('numSubagents[1] must be a finite number ≥ 0, got -2');
    expect(() => rewardKernel({ numSubagents: [4, 4], assignedSubtasks: [4, 2], completedSubtasks: [1, 5], rPerf: [0, 0] })).toThrow(
      'completedSubtasks[1] must be a finite number between 0 and assignedSubtasks[1] = 2, got 5',
    );
    expect(() => rewardKernel({ numSubagents: [1, 2], rPerf: [0] })).toThrow('rPerf.length must be 2 (shape [2]), got 1');
    expect(() => rewardKernel({ numSubagents: [1], rPerf: [0], trainingStep: [-1] })).toThrow('trainingStep[0] must be a finite training step ≥ 0, got -1');
    expect(() => rewardKernel({ numSubagents: [1], rPerf: [0] }, { maxSubagents: 0 })).toThrow(ParlInputError);
    expect(() => rewardKernel({ numSubagents: [1], rPerf: [0] }, {}, { output: 'json' as 'array' })).toThrow('output must be one of "tensor", "array"');
  });

  it('differentiates the reward with tf.grad', () => {
    const before = tf.memory().numTensors;
    const n = tf.tensor1d([10, 150]);
    const assigned = tf.tensor1d([4, 0]);
    const completed = tf.tensor1d([3, 0]);
    const perf = tf.tensor1d([0.5, 0.5]);
    const l1 = tf.tensor1d([0.1, 0.1]);
    const l2 = tf.tensor1d([0.05, 0.05]);
    const [gn, gc, gp] = tf.grads((a: tf.Tensor, c: tf.Tensor, p: tf.Tensor) =>
      tf.sum(rewardOp({ numSubagents: a, assignedSubtasks: assigned, completedSubtasks: c, rPerf: p, lambda1: l1, lambda2: l2 }).total_reward),
    )([n, completed, perf]);
    // ∂/∂n = λ1 / max inside the clamp, 0 where n/max is clamped to 1.
    expect(Array.from(gn!.dataSync())).toEqual([Math.fround(0.1 / 100), 0]);
    // ∂/∂completed = λ2 / assigned, 0 when nothing was assigned.
    expect(gc!.dataSync()[0]).toBeCloseTo(0.05 / 4, 7);
    expect(gc!.dataSync()[1]).toBe(0);
    expect(Array.from(gp!.dataSync())).toEqual([1, 1]);
    for (const t of [gn, gc, gp, n, assigned, completed, perf, l1, l2]) t!.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
