/**
 * Reading numbers people type (flags, schedule short forms): decimal only.
 *
 * @module
 */

/** A decimal number: `40`, `-0.5`, `.5`, `1e-3`. Not hex, octal, binary, `Infinity` or blank. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a decimal text stands for (surrounding blanks allowed), or NaN when it is not one.
 * `Number()` would read `0x10` as 16, `0b1` as 1 and `''` as 0; a typed flag means none of these.
 *
 * @example
 * ```ts
 * parseDecimal('1e-3'); // 0.001
 * parseDecimal('0x10'); // NaN
 * ```
 */
export function parseDecimal(text: string): number {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : Number.NaN;
}
