/**
 * CSV output (RFC 4180 quoting by `csv-stringify`): records become rows, nested values become
 * JSON text in their cell.
 *
 * @module
 */
import { stringify } from 'csv-stringify/sync';

/** The text of one CSV cell: numbers and booleans as written in JSON, objects and arrays as JSON, null and missing as empty. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * One CSV row (with its line ending), quoted where needed.
 *
 * @example
 * ```ts
 * csvRow(['id', 'note']); // 'id,note\n'
 * csvRow(['a,b', 'say "hi"']); // '"a,b","say ""hi"""\n'
 * ```
 */
export function csvRow(cells: readonly unknown[]): string {
  return stringify([cells.map(csvCell)]);
}
