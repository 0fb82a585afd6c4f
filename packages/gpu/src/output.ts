/**
 * How a kernel hands back its results: tensors (the default; the caller disposes them) or typed
 * arrays (downloaded, every tensor freed).
 *
 * @module
 */
import type * as tf from '@tensorflow/tfjs-core';
import { ParlInputError } from '@parl/core';

/** `tensor`: results stay on the device as `tf.Tensor`s; `array`: results come back as typed arrays. */
export type OutputMode = 'tensor' | 'array';

/** Options every kernel accepts. */
export interface KernelOptions {
  /** `tensor` (default) or `array`. */
  readonly output?: OutputMode;
}

/** The requested output mode, validated. */
export function outputMode(options: KernelOptions | undefined): OutputMode {
  const mode = options?.output ?? 'tensor';
  if (mode !== 'tensor' && mode !== 'array') {
    throw new ParlInputError('output', mode, 'one of "tensor", "array"');
  }
  return mode;
}

/** Download every tensor of `tensors` and dispose them all. */
export function toArrays(tensors: Readonly<Record<string, tf.Tensor>>): Record<string, Float32Array | Int32Array> {
  const out: Record<string, Float32Array | Int32Array> = {};
  try {
    for (const [key, tensor] of Object.entries(tensors)) {
      out[key] = tensor.dataSync() as Float32Array | Int32Array;
    }
  } finally {
    for (const tensor of Object.values(tensors)) tensor.dispose();
  }
  return out;
}
