import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParlInputError, criticalStepsBatch } from '@parl/core';
import { initBackend, smoothCriticalStepsKernel, smoothCriticalStepsOp, smoothGapBound, stagedTensors, tf } from '../src/index.js';
import { TEST_BACKENDS } from './backends.js';
import { stagedBatches } from './arbitraries.js';

const taus = fc.constantFrom(1e-3, 0.01, 0.1, 0.5, 1, 4);

describe.each(TEST_BACKENDS)('smoothCriticalStepsKernel on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('stays within its bound: 0 ≤ smooth − exact ≤ τ·Σ_t ln k_t ≤ T·τ·ln N (float32 slack 1e-5 relative)', () => {
    fc.assert(
      fc.property(stagedBatches, taus, (input, tau) => {
        const exact = criticalStepsBatch(input).critical_steps;
        const { smooth_critical_steps: smooth, gap_bound: bound } = smoothCriticalStepsKernel(input, tau, { output: 'array' });
        const uniform = smoothGapBound(input.stages, input.width, tau);
        for (let b = 0; b < input.batch; b++) {
          const slack = 1e-5 * Math.max(exact[b] as number, 1);
          const gap = (smooth[b] as number) - (exact[b] as number);
          expect(gap).toBeGreaterThanOrEqual(-slack);
          expect(gap).toBeLessThanOrEqual((bound[b] as number) + slack);
          expect(bound[b] as number).toBeLessThanOrEqual(uniform * (1 + 1e-6) + 1e-12);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('reaches the bound on ties and goes to the exact value as τ → 0', () => {
    // One stage, two equal sub-agents: LSE = max + τ·ln 2 exactly.
    const tie = { batch: 1, stages: 1, width: 2, subSteps: [3, 3] };
    const r = smoothCriticalStepsKernel(tie, 0.5, { output: 'array' });
    expect(r.smooth_critical_steps[0]).toBeCloseTo(1 + 3 + 0.5 * Math.LN2, 5);
    expect(r.gap_bound[0]).toBeCloseTo(0.5 * Math.LN2, 6);
    const input = { batch: 1, stages: 3, width: 4, subSteps: new Float32Array([1, 7, 2, 7, 5, 5, 5, 5, 0, 0, 0, 0]), groupSizes: [4, 4, 0] };
    const exact = criticalStepsBatch(input).critical_steps[0] as number;
    const gaps = [1, 0.1, 0.01, 0.001].map((tau) => (smoothCriticalStepsKernel(input, tau, { output: 'array' }).smooth_critical_steps[0] as number) - exact);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i] as number).toBeLessThan(gaps[i - 1] as number);
    expect(gaps[3] as number).toBeLessThan(1e-2);
    expect(gaps[3] as number).toBeGreaterThanOrEqual(0);
  });

  it('has the softmax over each stage as its gradient', () => {
    const before = tf.memory().numTensors;
    const staged = tf.tidy(() => stagedTensors({ batch: 1, stages: 1, width: 3, subSteps: [1, 2, 3] }));
    const tau = 0.7;
    const g = tf.grad((sub: tf.Tensor) => tf.sum(smoothCriticalStepsOp({ ...staged, subSteps: sub as tf.Tensor3D }, tau).smooth_critical_steps))(staged.subSteps);
    const e = [1, 2, 3].map((x) => Math.exp(x / tau));
    const z = e.reduce((a, b) => a + b, 0);
    const grad = g.dataSync();
    e.forEach((v, i) => expect(grad[i]).toBeCloseTo(v / z, 6));
    g.dispose();
    for (const t of Object.values(staged)) t.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects a bad temperature and leaks nothing', () => {
    const before = tf.memory().numTensors;
    const input = { batch: 1, stages: 1, width: 2, subSteps: [1, 2] };
    for (const tau of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => smoothCriticalStepsKernel(input, tau)).toThrow(ParlInputError);
    }
    expect(() => smoothCriticalStepsKernel(input, 0)).toThrow('tau must be a finite temperature > 0, got 0');
    smoothCriticalStepsKernel(input, 0.1, { output: 'array' });
    const out = smoothCriticalStepsKernel(input, 0.1);
    out.smooth_critical_steps.dispose();
    out.gap_bound.dispose();
    expect(() => smoothCriticalStepsKernel({ ...input, subSteps: [1, -2] }, 0.1)).toThrow('subSteps[0, 0, 1]');
    expect(tf.memory().numTensors).toBe(before);
  });
});
