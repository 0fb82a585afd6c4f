/**
 * Number formatting for tables and chart labels.
 *
 * @module
 */

/**
 * A number with 6 significant digits and no trailing zeros (`0.05`, `1234.57`, `1.23457e-7`);
 * `—` for null or undefined.
 *
 * @example
 * ```ts
 * formatNumber(0.1 + 0.2); // '0.3'
 * formatNumber(null); // '—'
 * ```
 */
export function formatNumber(value: number | null | undefined, digits = 6): string {
  if (value === null || value === undefined) return '—';
  return String(Number(value.toPrecision(digits)));
}
