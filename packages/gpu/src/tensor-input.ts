/**
 * Kernel inputs: typed arrays, number arrays or tensors, turned into float32 tensors of a
 * documented shape, with errors that name the field and the shape expected.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { ParlInputError, requireCount, type NumericArray } from '@parl/core';

/** What a kernel input may be: a typed array or number array (row-major), or a `tf.Tensor`. */
export type NumericInput = NumericArray | tf.Tensor;

/** True when `value` is a tfjs tensor (of any tfjs-core instance). */
export function isTensor(value: unknown): value is tf.Tensor {
  return value instanceof tf.Tensor;
}

/** `[2, 3, 4]` → `"[2, 3, 4]"`. */
export function shapeText(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/** Require a dimension (an integer ≥ 0), e.g. `batch`. */
export function requireDimension(value: unknown, field: string): number {
  return requireCount(value, field);
}

/**
 * A float32 tensor of `shape` from an input. A tensor must hold exactly the number of elements of
 * `shape` (it is reshaped, never copied on the device); an array must have that length. The
 * result belongs to the caller's `tf.tidy` scope.
 *
 * @throws `ParlInputError` (`@parl/core`) naming `field`, the length or shape received and the shape expected
 */
export function toFloat32Tensor(value: NumericInput, field: string, shape: readonly number[]): tf.Tensor {
  const size = shape.reduce((a, b) => a * b, 1);
  if (isTensor(value)) {
    if (value.size !== size) {
      throw new ParlInputError(`${field}.shape`, value.shape, `${size} elements (shape ${shapeText(shape)})`);
    }
    if (value.dtype === 'string' || value.dtype === 'complex64') {
      throw new ParlInputError(`${field}.dtype`, value.dtype, 'a numeric dtype (float32, int32 or bool)');
    }
    const floats = value.dtype === 'float32' ? value : tf.cast(value, 'float32');
    return tf.reshape(floats, [...shape]);
  }
  if (!(Array.isArray(value) || ArrayBuffer.isView(value))) {
    throw new ParlInputError(field, value, `a typed array, a number array or a tf.Tensor of shape ${shapeText(shape)}`);
  }
  const array = value as NumericArray;
  if (array.length !== size) {
    throw new ParlInputError(`${field}.length`, array.length, `${size} (shape ${shapeText(shape)})`);
  }
  const data = array instanceof Float32Array ? array : Float32Array.from(array as ArrayLike<number>);
  return tf.tensor(data, [...shape], 'float32');
}

/** A float32 tensor of `shape` filled with `value`, for an input left out. */
export function filled(shape: readonly number[], value: number): tf.Tensor {
  return tf.fill([...shape], value, 'float32');
}
