/**
 * The backends the kernel suites run on: cpu and wasm always; tensorflow-gpu / tensorflow when
 * their optional packages resolve on this machine.
 */
import { createRequire } from 'node:module';
import type { BackendName } from '../src/index.js';

const require = createRequire(import.meta.url);

/** True when a package resolves from this package's folder. */
export function resolves(specifier: string): boolean {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/** Whether each optional tfjs-node package is installed here. */
export const HAS_TFJS_NODE_GPU = resolves('@tensorflow/tfjs-node-gpu');
export const HAS_TFJS_NODE = resolves('@tensorflow/tfjs-node');

/** The backends to run every kernel suite on. */
export const TEST_BACKENDS: BackendName[] = [
  ...(HAS_TFJS_NODE_GPU ? (['tensorflow-gpu'] as const) : []),
  ...(HAS_TFJS_NODE && !HAS_TFJS_NODE_GPU ? (['tensorflow'] as const) : []),
  'wasm',
  'cpu',
];

/** |actual − expected| / max(|scale|, tiny): the relative error the parity tests bound. */
export function relativeError(actual: number, expected: number, scale = Math.abs(expected)): number {
  const diff = Math.abs(actual - expected);
  return diff === 0 ? 0 : diff / Math.max(scale, 1e-30);
}

/** The largest relative error over two arrays (per-element scales optional). */
export function maxRelativeError(actual: ArrayLike<number>, expected: ArrayLike<number>, scales?: ArrayLike<number>): number {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} ≠ ${expected.length}`);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const e = expected[i] as number;
    const err = relativeError(actual[i] as number, e, scales === undefined ? Math.abs(e) : (scales[i] as number));
    if (!(err <= worst)) worst = err;
  }
  return worst;
}

/** Parity tolerance of the issue: relative error ≤ 1e-5. */
export const TOLERANCE = 1e-5;
