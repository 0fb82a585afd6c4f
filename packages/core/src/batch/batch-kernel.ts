/**
 * Which implementation runs the batch kernels: WebAssembly SIMD or JavaScript, chosen per call
 * (`kernel` in the input), by the `PARL_KERNEL` environment variable, or automatically.
 *
 * @module
 */
import { ParlInputError } from '../errors.js';
import { wasmSimdSupported } from './wasm-arena.js';

/**
 * The implementation of {@link rewardBatch} and {@link criticalStepsBatch}: `auto` (the default)
 * runs WebAssembly SIMD where the runtime has it and JavaScript elsewhere (and for small batches,
 * where a WebAssembly call's fixed cost outweighs its speed); `wasm` and `js` force
 * one (`wasm` throws where the runtime lacks WebAssembly SIMD). Both give the same numbers, bit
 * for bit. The `PARL_KERNEL` environment variable (Node) sets the default for calls that do not
 * choose.
 */
export type BatchKernel = 'auto' | 'wasm' | 'js';

/** The values {@link BatchKernel} takes, as `PARL_KERNEL` accepts them. */
export const BATCH_KERNELS: readonly BatchKernel[] = ['auto', 'wasm', 'js'];

/** `PARL_KERNEL` from the environment, where the runtime has one (Node), else undefined. */
function kernelFromEnvironment(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.['PARL_KERNEL'];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The implementation a batch call runs: `choice` when given, else `PARL_KERNEL`, else `auto`,
 * with `auto` resolved to `wasm` when the runtime supports WebAssembly SIMD and to `js`
 * otherwise.
 *
 * @throws {@link ParlInputError} for an unknown choice, or for `wasm` where the runtime lacks
 *   WebAssembly SIMD
 *
 * @example
 * ```ts
 * resolveBatchKernel();      // 'wasm' in Node 20 and current browsers
 * resolveBatchKernel('js');  // 'js'
 * ```
 */
export function resolveBatchKernel(choice?: BatchKernel): 'wasm' | 'js' {
  return batchKernelFor(choice, 0, 0);
}

/** The kernel asked for (`choice`, else `PARL_KERNEL`, else `auto`), validated; `wasm` only where it runs. */
function requestedKernel(choice: BatchKernel | undefined): BatchKernel {
  const fromEnv = choice === undefined ? kernelFromEnvironment() : undefined;
  const wanted: unknown = choice ?? fromEnv ?? 'auto';
  const field = choice === undefined && fromEnv !== undefined ? 'PARL_KERNEL' : 'kernel';
  if (wanted === 'js' || wanted === 'auto') return wanted;
  if (wanted === 'wasm') {
    if (!wasmSimdSupported()) throw new ParlInputError(field, wanted, "'auto' or 'js': this runtime has no WebAssembly SIMD");
    return 'wasm';
  }
  throw new ParlInputError(field, wanted, `one of ${BATCH_KERNELS.map((k) => `'${k}'`).join(', ')}`);
}

/**
 * The kernel a call of `work` items runs: as {@link resolveBatchKernel}, except that `auto`
 * keeps batches under `minimum` items in JavaScript, where a WebAssembly call's fixed cost
 * (a few microseconds) outweighs its speed.
 */
export function batchKernelFor(choice: BatchKernel | undefined, work: number, minimum: number): 'wasm' | 'js' {
  const wanted = requestedKernel(choice);
  if (wanted === 'auto') return work >= minimum && wasmSimdSupported() ? 'wasm' : 'js';
  return wanted;
}
