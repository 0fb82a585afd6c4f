/**
 * Reading the rows of a table-shaped input file, whatever its format, one at a time with where
 * each came from: JSONL (`line N`), a JSON array (`record N`), CSV with a header line (`line N`,
 * by `csv-parse`; every cell a string), Parquet and Arrow IPC (`row N`, through the columnar
 * readers; lists and structs as arrays and objects). The format is told by the file's name
 * (`.csv`, `.parquet`, `.arrow` / `.feather`, `.arrows`), and JSON from JSONL by the content, as
 * {@link readRecords} does. For inputs that are lists of rows (task files), not spec §5 records.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { columnarFormatOf, type ColumnarFormat } from './columnar/columnar-format.js';
import { LineStarts } from './line-starts.js';
import { isUnreadable, openInput, readRecords } from './read-records.js';

/** The formats of {@link readRows}. */
export type RowFormat = 'jsonl' | 'json' | 'csv' | ColumnarFormat;

/** One row as read. */
export interface SourcedRow {
  /** The row: a parsed JSON value (JSON, JSONL), column → text (CSV) or column → value (Parquet, Arrow). */
  readonly value: unknown;
  /** `line N` (JSONL; CSV: the line the row starts on, `\r\n` one line break), `record N` (JSON array) or `row N` (Parquet, Arrow), 1-based. */
  readonly location: string;
  /** The format of the file. */
  readonly format: RowFormat;
}

/** Rewrite a located error so that it names the file as the user gave it. */
function located(err: unknown, path: string, flag: string): unknown {
  if (!(err instanceof ParlInputError)) return err;
  const where = err.location ?? '';
  // The columnar readers name the file as `--in PATH (Parquet)`: here it came with `flag`.
  const rewritten = where.startsWith(`--in ${path}`) ? `${flag} ${where.slice(3)}` : `${flag} ${path}${where === '' ? '' : ` ${where}`}`;
  return err.at(rewritten);
}

async function* csvRows(path: string, flag: string): AsyncGenerator<SourcedRow> {
  const [{ parse }, input] = await Promise.all([import('csv-parse'), openInput(path, process.stdin, flag)]);
  // csv-parse counts a quoted \r\n as two lines and reports where a row ends: the row's own line
  // is found from the byte offset where the row before it ended.
  const lines = new LineStarts();
  const parser = input.pipe(lines).pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true, relax_column_count: false }));
  let ended: number | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; bytes: number } }>) {
      // The first row starts on the first non-empty line after the header line.
      const start = (ended === undefined ? lines.lineAfterFirst() : lines.lineAtOrAfter(ended)) ?? info.lines;
      ended = info.bytes;
      yield { value: record, location: `line ${start}`, format: 'csv' };
    }
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    const e = err as Error & { lines?: number };
    throw new ParlInputError('CSV', e.message.replace(/\s+/g, ' '), 'CSV with a header line and the same number of cells on every line (RFC 4180 quoting)', e.lines === undefined ? undefined : `line ${e.lines}`, 'PARL_ERR_PARSE');
  }
}

async function* jsonRows(path: string, flag: string): AsyncGenerator<SourcedRow> {
  for await (const item of readRecords(await openInput(path, process.stdin, flag))) {
    if (isUnreadable(item)) throw item.error;
    yield { value: item.value, location: item.location, format: item.format };
  }
}

async function* columnar(format: ColumnarFormat, path: string, flag: string): AsyncGenerator<SourcedRow> {
  const { columnarRows } = await import('./internal/columnar/plain-rows.js');
  let n = 0;
  for await (const value of columnarRows(format, path, flag)) yield { value, location: `row ${++n}`, format };
}

/**
 * The rows of the file at `path`.
 *
 * @param path - the file (its name tells CSV, Parquet and Arrow; anything else is JSON or JSONL)
 * @param flag - the flag it was given with, for the error lines (default `--in`)
 * @throws {@link ParlIoError} when the file cannot be read; {@link @parl/core!ParlInputError}
 *   located at the file and the line or row (`--tasks-file t.jsonl line 4`) when one does not parse
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('tasks.csv', 'id,prompt,answer\nq1,"Capital of France?",Paris\n');
 * for await (const row of readRows('tasks.csv', '--tasks-file')) console.log(row.location, row.value);
 * ```
 */
export async function* readRows(path: string, flag = '--in'): AsyncGenerator<SourcedRow> {
  const format = columnarFormatOf(path);
  const rows = format !== undefined ? columnar(format, path, flag) : path.toLowerCase().endsWith('.csv') ? csvRows(path, flag) : jsonRows(path, flag);
  try {
    yield* rows;
  } catch (err) {
    throw located(err, path, flag);
  }
}
