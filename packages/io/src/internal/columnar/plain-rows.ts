/**
 * The rows of a columnar file (Parquet or Arrow IPC) as plain JavaScript objects: one object per
 * row, column name → value, with Arrow lists as arrays, structs and maps as objects, 64-bit
 * integers as numbers (as text when they do not fit a double exactly) and nulls as `null`.
 * For readers that take rows one by one (task files), not for the labelling engine, which keeps
 * the batches whole.
 *
 * @module
 */
import { open } from 'node:fs/promises';
import { Vector, type RecordBatch } from 'apache-arrow';
import { ParlIoError, describeFsError } from '../../errors.js';
import type { ColumnarFormat } from '../../columnar/columnar-format.js';
import { columnarBatches } from './columnar-io.js';

/** An Arrow value as plain JSON-like data. */
export function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Vector) return [...(value as Vector)].map(plainValue);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return [...(value as unknown as Iterable<unknown>)].map(plainValue);
  if (typeof value === 'object') {
    // Struct and map rows (apache-arrow's StructRow, MapRow) and plain objects.
    const json = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
    if (json instanceof Map) return Object.fromEntries([...json].map(([k, v]) => [String(k), plainValue(v)]));
    if (typeof json !== 'object' || json === null) return plainValue(json);
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, plainValue(v)]));
  }
  return value;
}

/** The rows of one record batch as plain objects. */
export function plainRowsOf(batch: RecordBatch): Record<string, unknown>[] {
  const names = batch.schema.fields.map((f) => f.name);
  const columns = names.map((_, i) => batch.getChildAt(i));
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < batch.numRows; r++) {
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => {
      row[name] = plainValue(columns[i]?.get(r));
    });
    rows.push(row);
  }
  return rows;
}

/**
 * The rows of the columnar file at `path`, one plain object each, batch by batch (memory bounded
 * by one batch).
 *
 * @param flag - the flag the file was given with, for the error lines (`--tasks-file`)
 * @throws {@link ParlIoError} when the file cannot be opened; a located
 *   {@link @parl/core!ParlInputError} when it is damaged
 */
export async function* columnarRows(format: ColumnarFormat, path: string, flag: string): AsyncGenerator<Record<string, unknown>> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new ParlIoError(`cannot read ${flag} ${path}: ${describeFsError(err)}`);
  }
  try {
    for await (const batch of columnarBatches(format, handle, path)) yield* plainRowsOf(batch);
  } finally {
    await handle.close();
  }
}
