/**
 * Input validation on the device: each check is a boolean tensor that is true where the input is
 * valid; all checks (and any summary statistics) are reduced together and read back with one
 * small download. Only when a check fails is its mask downloaded, to name the first bad element
 * by its index.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { ParlInputError } from '@parl/core';
import { isTensor, type NumericInput } from './tensor-input.js';

/** One validation rule over one input. */
export interface InputCheck {
  /** The input's name, e.g. `subSteps`; the error names `subSteps[b, t, i]`. */
  readonly field: string;
  /** The input's logical shape, used to turn a flat index into `[b, t, i]`. */
  readonly shape: readonly number[];
  /** Boolean tensor of that shape: true where the input is valid. */
  readonly ok: tf.Tensor;
  /** The input as given (array or tensor), to report the offending value exactly. */
  readonly values: NumericInput;
  /** What was expected, in words, or a function of the flat index for rules that depend on it. */
  readonly expected: string | ((flatIndex: number) => string);
}

/** A flat index of `shape` as `[b, t, i]` (or `[i]` for one dimension). */
export function indexText(flat: number, shape: readonly number[]): string {
  const parts: number[] = [];
  let rest = flat;
  for (let d = shape.length - 1; d >= 0; d--) {
    const size = shape[d] as number;
    parts.unshift(rest % size);
    rest = Math.floor(rest / size);
  }
  return `[${parts.join(', ')}]`;
}

function valueAt(values: NumericInput, flat: number): unknown {
  if (isTensor(values)) return (values.dataSync() as ArrayLike<number>)[flat];
  return (values as ArrayLike<unknown>)[flat];
}

/** Throw for the first element of `check` that fails (its count of failures was > 0). */
function fail(check: InputCheck): never {
  const mask = check.ok.dataSync();
  let flat = 0;
  while (flat < mask.length && mask[flat] !== 0) flat++;
  const expected = typeof check.expected === 'string' ? check.expected : check.expected(flat);
  throw new ParlInputError(`${check.field}${indexText(flat, check.shape)}`, valueAt(check.values, flat), expected);
}

/**
 * Run every check; throw for the first failing one (in the order given), naming its first bad
 * element. `stats` are scalar tensors read back in the same download and returned, for callers
 * that decide on a fast path from summary statistics. Call inside `tf.tidy`.
 *
 * @throws `ParlInputError` (`@parl/core`) e.g. `subSteps[0, 2, 1] must be a finite number ≥ 0, got NaN`
 */
export function enforceChecks(checks: readonly InputCheck[], stats: readonly tf.Tensor[] = []): number[] {
  if (checks.length === 0 && stats.length === 0) return [];
  const summary = tf.tidy(() =>
    tf.stack([
      ...checks.map((c) => (c.ok.size === 0 ? tf.scalar(0) : tf.sum(tf.cast(tf.logicalNot(c.ok), 'float32')))),
      ...stats.map((s) => tf.cast(tf.reshape(s, []), 'float32')),
    ]),
  );
  const values = Array.from(summary.dataSync());
  summary.dispose();
  checks.forEach((check, k) => {
    if ((values[k] as number) !== 0) fail(check);
  });
  return values.slice(checks.length);
}

/** True where `x` is finite and ≥ 0. */
export function finiteNonNegative(x: tf.Tensor): tf.Tensor {
  return tf.logicalAnd(tf.isFinite(x), tf.greaterEqual(x, 0));
}

/** True where `x` is an integer between `low` and `high` (inclusive). */
export function integerBetween(x: tf.Tensor, low: number, high: number): tf.Tensor {
  return tf.logicalAnd(
    tf.logicalAnd(tf.isFinite(x), tf.equal(x, tf.round(x))),
    tf.logicalAnd(tf.greaterEqual(x, low), tf.lessEqual(x, high)),
  );
}
