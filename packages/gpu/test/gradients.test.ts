import { describe, expect, it } from 'vitest';
import { PARL_GRADIENT_KERNELS, registerParlGradients, tf } from '../src/index.js';

describe('gradient registration', () => {
  it('registers tfjs-core’s gradients for the kernels models and PARL ops use', () => {
    for (const kernel of ['Add', 'Max', 'Select', 'BatchMatMul', 'Tanh', 'Softmax', 'LogSoftmax', 'SplitV', 'Concat', 'Relu', 'Sigmoid', 'Mean']) {
      expect(PARL_GRADIENT_KERNELS, kernel).toContain(kernel);
      expect(tf.getGradient(kernel), kernel).toBeDefined();
    }
    // Idempotent: a second call finds everything registered and adds nothing.
    expect(registerParlGradients()).toEqual([]);
  });

  it('differentiates a small model: d tanh(x)/dx = 1 − tanh²(x)', () => {
    const before = tf.memory().numTensors;
    const x = tf.tensor1d([-1, 0, 0.5]);
    const g = tf.grad((v: tf.Tensor) => tf.sum(tf.tanh(v)))(x);
    const got = g.dataSync();
    [-1, 0, 0.5].forEach((v, i) => expect(got[i]).toBeCloseTo(1 - Math.tanh(v) ** 2, 6));
    g.dispose();
    x.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
