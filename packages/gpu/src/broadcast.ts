/**
 * Masks and broadcasts that stay on the fast paths of every backend. Measured on tfjs 4.22:
 * the cpu backend's broadcasting binary ops and the wasm backend's broadcasting comparisons take
 * a generic per-element index path that is 10–70× slower than a same-shape op, so the kernels
 * build masks with oneHot + cumsum and repeat along an axis with a matrix product on cpu.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';

/**
 * A float32 0/1 mask of shape `[...counts.shape, n]`: 1 at positions i < counts (counts are
 * integer-valued, 0..n). Built as the reversed cumulative sum of a one-hot at counts − 1, so no
 * broadcasting comparison is needed. Not differentiable in `counts` (integers).
 */
export function prefixMask(counts: tf.Tensor, n: number): tf.Tensor {
  if (n === 0) return tf.zeros([...counts.shape, 0], 'float32');
  // tf.oneHot needs a depth ≥ 2.
  if (n === 1) return tf.reshape(tf.clipByValue(tf.floor(tf.cast(counts, 'float32')), 0, 1), [...counts.shape, 1]);
  const last = tf.sub(tf.cast(counts, 'int32'), tf.scalar(1, 'int32'));
  return tf.cast(tf.cumsum(tf.oneHot(last, n), counts.rank, false, true), 'float32');
}

/**
 * `t` repeated along a new last axis of size n, for an element-wise op with a `[..., n]` tensor.
 * On the cpu backend an outer product with ones (exact: each entry is t·1); elsewhere `t` reshaped
 * to `[..., 1]`, which the next op broadcasts natively.
 */
export function repeatLast(t: tf.Tensor, n: number): tf.Tensor {
  if (tf.getBackend() === 'cpu' && n > 1) {
    const rows = tf.reshape(t, [t.size, 1]);
    return tf.reshape(tf.matMul(rows, tf.ones([1, n])), [...t.shape, n]);
  }
  return tf.reshape(t, [...t.shape, 1]);
}
