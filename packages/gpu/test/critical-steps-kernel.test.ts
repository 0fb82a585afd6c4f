import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParlInputError, criticalSteps, criticalStepsBatch } from '@parl/core';
import { criticalStepsKernel, criticalStepsOp, heaviestPathKernel, initBackend, rewardKernel, smoothCriticalStepsKernel, stagedTensors, tf } from '../src/index.js';
import { stagedBatches } from './arbitraries.js';
import { maxRelativeError, TEST_BACKENDS, TOLERANCE } from './backends.js';

describe.each(TEST_BACKENDS)('criticalStepsKernel on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('equals @parl/core criticalStepsBatch on random ragged batches (relative error ≤ 1e-5)', () => {
    fc.assert(
      fc.property(stagedBatches, (input) => {
        const expected = criticalStepsBatch(input);
        const actual = criticalStepsKernel(input, { output: 'array' });
        expect(maxRelativeError(actual.critical_steps, expected.critical_steps)).toBeLessThanOrEqual(TOLERANCE);
        expect(maxRelativeError(actual.total_steps, expected.total_steps)).toBeLessThanOrEqual(TOLERANCE);
        expect(maxRelativeError(actual.parallelism, expected.parallelism)).toBeLessThanOrEqual(TOLERANCE);
        expect(Array.from(actual.max_width)).toEqual(Array.from(expected.max_width));
      }),
      { numRuns: 40 },
    );
  });

  it('gives the spec example (critical 7, total 12) and parallelism 1 for an empty episode', () => {
    const out = criticalStepsKernel(
      { batch: 2, stages: 2, width: 3, subSteps: [3, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], groupSizes: [3, 0, 0, 0], mainSteps: [1, 1, 0, 0] },
      { output: 'array' },
    );
    const core = criticalSteps([
      { main_steps: 1, sub_steps: [3, 5, 2] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect(out.critical_steps[0]).toBe(core.critical_steps);
    expect(out.total_steps[0]).toBe(core.total_steps);
    expect(out.parallelism[0]).toBeCloseTo(12 / 7, 6);
    expect(out.max_width[0]).toBe(3);
    expect([out.critical_steps[1], out.total_steps[1], out.parallelism[1], out.max_width[1]]).toEqual([0, 0, 1, 0]);
  });

  it('ignores padding past a group size or past numStages, even NaN, as core does', () => {
    const input = {
      batch: 1,
      stages: 2,
      width: 2,
      subSteps: new Float64Array([4, Number.NaN, -7, Number.POSITIVE_INFINITY]),
      groupSizes: [1, 2],
      numStages: [1],
    };
    expect(criticalStepsKernel(input, { output: 'array' }).critical_steps[0]).toBe(criticalStepsBatch(input).critical_steps[0]);
  });

  it('names the bad element by its [b, t, i] index', () => {
    const base = { batch: 1, stages: 2, width: 2, subSteps: [1, 2, 3, 4] };
    expect(() => criticalStepsKernel({ ...base, subSteps: [1, 2, 3, -4] })).toThrow('subSteps[0, 1, 1] must be a finite number ≥ 0, got -4');
    expect(() => criticalStepsKernel({ ...base, subSteps: [1, Number.NaN, 3, 4] })).toThrow('subSteps[0, 0, 1] must be a finite number ≥ 0, got NaN');
    expect(() => criticalStepsKernel({ ...base, groupSizes: [2, 3] })).toThrow('groupSizes[0, 1] must be an integer between 0 and 2, got 3');
    expect(() => criticalStepsKernel({ ...base, groupSizes: [1.5, 0] })).toThrow('groupSizes[0, 0] must be an integer between 0 and 2, got 1.5');
    expect(() => criticalStepsKernel({ ...base, mainSteps: [1, Number.POSITIVE_INFINITY] })).toThrow('mainSteps[0, 1] must be a finite number ≥ 0, got Infinity');
    expect(() => criticalStepsKernel({ ...base, numStages: [3] })).toThrow('numStages[0] must be an integer between 0 and 2, got 3');
    expect(() => criticalStepsKernel({ ...base, subSteps: [1, 2, 3] })).toThrow('subSteps.length must be 4 (shape [1, 2, 2]), got 3');
    const wrong = tf.zeros([2, 3]);
    expect(() => criticalStepsKernel({ ...base, subSteps: wrong })).toThrow('subSteps.shape must be 4 elements (shape [1, 2, 2]), got [2,3]');
    wrong.dispose();
    expect(() => criticalStepsKernel({ ...base, batch: -1 })).toThrow(ParlInputError);
  });

  it('leaks no tensor: arrays out, tensors out (once disposed), and on errors', () => {
    const before = tf.memory().numTensors;
    const input = { batch: 2, stages: 2, width: 2, subSteps: [1, 2, 3, 4, 5, 6, 7, 8] };
    criticalStepsKernel(input, { output: 'array' });
    expect(tf.memory().numTensors).toBe(before);
    const out = criticalStepsKernel(input);
    expect(out.critical_steps.shape).toEqual([2]);
    expect(out.max_width.dtype).toBe('int32');
    expect(tf.memory().numTensors).toBe(before + 4);
    for (const t of Object.values(out)) t.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => criticalStepsKernel({ ...input, subSteps: [1, 2, 3, 4, 5, 6, 7, -8] })).toThrow(ParlInputError);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('takes tensor inputs of the documented shapes, left on the device', () => {
    const before = tf.memory().numTensors;
    const sub = tf.tensor3d([[[3, 5, 2], [4, 9, 0]]]);
    const groups = tf.tensor2d([[3, 2]], undefined, 'int32');
    const out = criticalStepsKernel({ batch: 1, stages: 2, width: 3, subSteps: sub, groupSizes: groups }, { output: 'array' });
    expect(out.critical_steps[0]).toBe(1 + 5 + 1 + 9);
    expect(sub.isDisposed).toBe(false);
    sub.dispose();
    groups.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('differentiates critical steps with tf.grad: 1 at each stage max and on used main steps', () => {
    const before = tf.memory().numTensors;
    const staged = tf.tidy(() => stagedTensors({ batch: 1, stages: 2, width: 3, subSteps: [3, 5, 2, 4, 1, 0], groupSizes: [3, 2], mainSteps: [1, 2] }));
    const [dSub, dMain] = tf.grads((sub: tf.Tensor, main: tf.Tensor) =>
      tf.sum(criticalStepsOp({ ...staged, subSteps: sub as tf.Tensor3D, mainSteps: main as tf.Tensor2D }).critical_steps),
    )([staged.subSteps, staged.mainSteps]);
    expect(Array.from(dSub!.dataSync())).toEqual([0, 1, 0, 1, 0, 0]);
    expect(Array.from(dMain!.dataSync())).toEqual([1, 1]);
    // Through parallelism too (total / critical), which needs the comparison with 0 kept off the tape.
    const dPar = tf.grad((sub: tf.Tensor) => tf.sum(criticalStepsOp({ ...staged, subSteps: sub as tf.Tensor3D }).parallelism))(staged.subSteps);
    // ∂(W/C)/∂x for a non-max sub step is 1/C (C = 1 + 5 + 2 + 4 = 12).
    expect(dPar.dataSync()[0]).toBeCloseTo(1 / 12, 6);
    for (const t of [dSub, dMain, dPar, ...Object.values(staged)]) t!.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe.each(TEST_BACKENDS)('empty shapes on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('handles B = 0, T = 0 and N = 0 like core', () => {
    for (const [batch, stages, width] of [[0, 3, 2], [2, 0, 2], [2, 2, 0], [1, 2, 1]] as const) {
      const size = batch * stages * width;
      const input = { batch, stages, width, subSteps: new Float32Array(size).fill(2) };
      const expected = criticalStepsBatch(input);
      const actual = criticalStepsKernel(input, { output: 'array' });
      expect(Array.from(actual.critical_steps), `[${batch}, ${stages}, ${width}]`).toEqual(Array.from(expected.critical_steps));
      expect(Array.from(actual.parallelism)).toEqual(Array.from(expected.parallelism));
      expect(Array.from(actual.max_width)).toEqual(Array.from(expected.max_width));
      const smooth = smoothCriticalStepsKernel(input, 0.1, { output: 'array' });
      expect(Array.from(smooth.smooth_critical_steps)).toEqual(Array.from(expected.critical_steps));
    }
    expect(Array.from(heaviestPathKernel({ batch: 0, nodes: 3, weights: [], adjacency: [] }, { output: 'array' }).weight)).toEqual([]);
    expect(Array.from(heaviestPathKernel({ batch: 2, nodes: 0, weights: [], adjacency: [] }, { output: 'array' }).weight)).toEqual([0, 0]);
    expect(Array.from(rewardKernel({ numSubagents: [], rPerf: [] }, {}, { output: 'array' }).total_reward)).toEqual([]);
  });
});
