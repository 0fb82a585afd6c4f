/**
 * Numbers in text, as the `number:TOL` scorer and the tables' `number:TOL` metric read them:
 * thousands separators (`1,234`), signs, decimals and exponents; `%`, currency and units around
 * them ignored.
 *
 * @module
 */

const NUMBER = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?/g;

/** The numbers in `text`, in order. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(NUMBER)].map((m) => Number(m[0].replace(/,/g, ''))).filter((n) => Number.isFinite(n));
}

/** Whether `got` is within `tolerance` of `want` (absolute, or relative to |want| when `relative`, a percentage). */
export function withinTolerance(got: number, want: number, tolerance: { readonly value: number; readonly relative: boolean }): boolean {
  const allowed = tolerance.relative ? (Math.abs(want) * tolerance.value) / 100 : tolerance.value;
  // A hair of slack for decimal fractions (0.1 + 0.2): never more than one part in 10^12.
  return Math.abs(got - want) <= allowed + Math.abs(want) * 1e-12;
}
