import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_KERNELS, resolveBatchKernel, wasmSimdSupported } from '../../src/index.js';
import { batchKernelFor } from '../../src/batch/batch-kernel.js';
import { messageOf } from '../support.js';

describe('resolveBatchKernel', () => {
  const saved = process.env['PARL_KERNEL'];
  afterEach(() => {
    if (saved === undefined) delete process.env['PARL_KERNEL'];
    else process.env['PARL_KERNEL'] = saved;
  });

  it('Node 20 has WebAssembly SIMD, so auto runs the WebAssembly kernels', () => {
    delete process.env['PARL_KERNEL'];
    expect(wasmSimdSupported()).toBe(true);
    expect(resolveBatchKernel()).toBe('wasm');
    expect(resolveBatchKernel('auto')).toBe('wasm');
    expect(BATCH_KERNELS).toEqual(['auto', 'wasm', 'js']);
  });

  it('a choice wins over PARL_KERNEL, which wins over auto', () => {
    process.env['PARL_KERNEL'] = 'js';
    expect(resolveBatchKernel()).toBe('js');
    expect(resolveBatchKernel('wasm')).toBe('wasm');
    process.env['PARL_KERNEL'] = 'wasm';
    expect(resolveBatchKernel()).toBe('wasm');
    expect(resolveBatchKernel('js')).toBe('js');
    process.env['PARL_KERNEL'] = '';
    expect(resolveBatchKernel()).toBe('wasm');
  });

  it('an unknown choice names where it came from', () => {
    process.env['PARL_KERNEL'] = 'simd';
    expect(messageOf(() => resolveBatchKernel())).toBe(`PARL_KERNEL must be one of 'auto', 'wasm', 'js', got "simd"`);
    expect(messageOf(() => resolveBatchKernel('gpu' as never))).toBe(`kernel must be one of 'auto', 'wasm', 'js', got "gpu"`);
  });

  it('auto keeps small batches in JavaScript; a forced choice holds at any size', () => {
    delete process.env['PARL_KERNEL'];
    expect(batchKernelFor(undefined, 100, 512)).toBe('js');
    expect(batchKernelFor('auto', 512, 512)).toBe('wasm');
    expect(batchKernelFor('wasm', 1, 512)).toBe('wasm');
    expect(batchKernelFor('js', 1e9, 512)).toBe('js');
    process.env['PARL_KERNEL'] = 'wasm';
    expect(batchKernelFor(undefined, 1, 512)).toBe('wasm');
  });
});
