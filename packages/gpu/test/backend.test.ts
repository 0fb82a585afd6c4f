import { afterEach, describe, expect, it } from 'vitest';
import { ParlInputError } from '@parl/core';
import { BACKEND_NAMES, activeBackend, criticalStepsKernel, initBackend, tf } from '../src/index.js';
import { HAS_TFJS_NODE, HAS_TFJS_NODE_GPU } from './backends.js';

const saved = process.env['PARL_BACKEND'];
afterEach(() => {
  if (saved === undefined) delete process.env['PARL_BACKEND'];
  else process.env['PARL_BACKEND'] = saved;
});

describe('initBackend', () => {
  it('picks the first backend that loads, and says why the others were skipped', async () => {
    delete process.env['PARL_BACKEND'];
    const selection = await initBackend();
    const expected = HAS_TFJS_NODE_GPU ? 'tensorflow-gpu' : HAS_TFJS_NODE ? 'tensorflow' : 'wasm';
    expect(selection.backend).toBe(expected);
    expect(tf.getBackend()).toBe(selection.tfjsBackend);
    expect(activeBackend()).toBe(expected);
    if (!HAS_TFJS_NODE_GPU) {
      const gpu = selection.skipped.find((s) => s.backend === 'tensorflow-gpu');
      expect(gpu?.reason).toMatch(/@tensorflow\/tfjs-node-gpu could not be loaded/);
    }
  });

  it('is safe to call twice, and concurrently', async () => {
    delete process.env['PARL_BACKEND'];
    const [a, b] = await Promise.all([initBackend(), initBackend()]);
    const c = await initBackend();
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const before = tf.memory().numTensors;
    expect(criticalStepsKernel({ batch: 1, stages: 1, width: 2, subSteps: [2, 3] }, { output: 'array' }).critical_steps[0]).toBe(4);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('honours a custom order and switches back and forth', async () => {
    delete process.env['PARL_BACKEND'];
    const cpu = await initBackend({ order: ['cpu', 'wasm'] });
    expect(cpu.backend).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    expect(cpu.skipped.map((s) => s.backend).sort()).toEqual(['tensorflow', 'tensorflow-gpu']);
    expect(cpu.skipped.every((s) => s.reason === 'not in the order given')).toBe(true);
    expect((await initBackend({ order: ['wasm'] })).backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
  });

  it('lets PARL_BACKEND force a backend', async () => {
    for (const name of ['cpu', 'wasm'] as const) {
      process.env['PARL_BACKEND'] = name;
      const selection = await initBackend({ order: ['cpu'] });
      expect(selection.backend).toBe(name);
      expect(tf.getBackend()).toBe(name);
      expect(selection.skipped).toHaveLength(BACKEND_NAMES.length - 1);
      expect(selection.skipped[0]?.reason).toContain(`PARL_BACKEND = "${name}" forces that backend`);
    }
  });

  it('rejects an unknown PARL_BACKEND, naming the value and the valid names', async () => {
    process.env['PARL_BACKEND'] = 'cuda';
    const err = await initBackend().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as ParlInputError).field).toBe('PARL_BACKEND');
    expect((err as Error).message).toBe('PARL_BACKEND must be one of "tensorflow-gpu", "tensorflow", "wasm", "cpu", got "cuda"');
    // A failed call leaves the next one working.
    delete process.env['PARL_BACKEND'];
    await expect(initBackend({ force: 'cpu' })).resolves.toMatchObject({ backend: 'cpu' });
  });

  it('rejects bad options', async () => {
    await expect(initBackend({ force: 'gpu' as 'cpu' })).rejects.toThrow('force must be one of "tensorflow-gpu", "tensorflow", "wasm", "cpu", got "gpu"');
    await expect(initBackend({ order: [] })).rejects.toThrow('order must be a non-empty array');
    await expect(initBackend({ order: ['cpu', 'metal' as 'cpu'] })).rejects.toThrow('order[1] must be one of');
  });

  it.skipIf(HAS_TFJS_NODE_GPU)(
    'fails clearly when PARL_BACKEND forces tensorflow-gpu and @tensorflow/tfjs-node-gpu is absent (skipped: it is installed here)',
    async () => {
      process.env['PARL_BACKEND'] = 'tensorflow-gpu';
      await expect(initBackend()).rejects.toThrow(
        /^PARL_BACKEND must be a backend that runs here \(@tensorflow\/tfjs-node-gpu could not be loaded: .*\); valid names are "tensorflow-gpu", "tensorflow", "wasm", "cpu", got "tensorflow-gpu"$/,
      );
    },
  );

  it.skipIf(!HAS_TFJS_NODE)(
    'runs the kernels on tfjs-node when it resolves (skipped: @tensorflow/tfjs-node is not installed; its install downloads libtensorflow)',
    async () => {
      const selection = await initBackend({ force: 'tensorflow' });
      expect(tf.getBackend()).toBe('tensorflow');
      expect(selection.backend).toBe('tensorflow');
      expect(criticalStepsKernel({ batch: 1, stages: 1, width: 2, subSteps: [2, 3] }, { output: 'array' }).critical_steps[0]).toBe(4);
    },
  );

  it.skipIf(!HAS_TFJS_NODE_GPU)(
    'runs the kernels on tfjs-node-gpu when it resolves (skipped: @tensorflow/tfjs-node-gpu is not installed; it needs CUDA 11.2, cuDNN 8.1 and downloads libtensorflow)',
    async () => {
      const selection = await initBackend({ force: 'tensorflow-gpu' });
      expect(tf.getBackend()).toBe('tensorflow');
      expect(selection.backend).toBe('tensorflow-gpu');
      expect(criticalStepsKernel({ batch: 1, stages: 1, width: 2, subSteps: [2, 3] }, { output: 'array' }).critical_steps[0]).toBe(4);
    },
  );
});
