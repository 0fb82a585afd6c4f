/**
 * Writing labelled records as JSONL, JSON or CSV to a {@link TextSink}.
 *
 * @module
 */
import { recordText } from '@parl/core';
import { csvRow } from './csv.js';
import type { TextSink } from './text-sink.js';

/** The record output formats: `jsonl` (one object per line), `json` (an array), `csv`. */
export type OutputFormat = 'jsonl' | 'json' | 'csv';

/** The output formats, as accepted by `--format`. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['jsonl', 'json', 'csv'];


/** Writes records one by one in one format. */
export interface RecordWriter {
  /** Append one record. `location` names it in warnings (CSV fields outside the header). */
  write(record: Readonly<Record<string, unknown>>, location: string): Promise<void>;
  /**
   * Append `n` records already written as text: JSONL lines (each with its LF), or JSON array
   * elements joined by `,\n  `. Not for CSV.
   */
  writeTexts(text: string | Uint8Array, n: number): Promise<void>;
  /** Close the format (the `]` of a JSON array) and keep the output. */
  finish(): Promise<void>;
  /** Drop the output (a file under its final name never appears). */
  abort(): Promise<void>;
  /** How many records were written. */
  readonly count: number;
}

/** Options of {@link createRecordWriter}. */
export interface RecordWriterOptions {
  /** CSV columns; by default the first record's fields, in order. */
  readonly columns?: readonly string[];
  /** Called when a later record has fields the CSV header does not (each field reported once). */
  readonly warn?: (message: string) => void;
}

/**
 * A record writer for `format` over `sink`. JSON is written as a streamed array (one record per
 * line), so no format needs the records in memory. CSV takes its header from `columns` or from the
 * first record; without `columns`, a field that appears only in later records is reported once
 * through `warn` (it has no column). A missing field is an empty cell.
 */
export function createRecordWriter(format: OutputFormat, sink: TextSink, options: RecordWriterOptions = {}): RecordWriter {
  let count = 0;
  let columns: readonly string[] | undefined = options.columns;
  let known: Set<string> | undefined = columns === undefined ? undefined : new Set(columns);
  const warned = new Set<string>();

  const writeCsv = async (record: Readonly<Record<string, unknown>>, location: string): Promise<void> => {
    if (columns === undefined || known === undefined) {
      columns = Object.keys(record);
      known = new Set(columns);
    }
    const unknown = Object.keys(record).filter((key) => !(known as Set<string>).has(key) && !warned.has(key));
    if (unknown.length > 0 && options.columns === undefined) {
      for (const key of unknown) warned.add(key);
      options.warn?.(
        `${location} has ${unknown.length === 1 ? 'a field' : 'fields'} with no CSV column, left out: ${unknown.join(', ')} (columns come from the first record; choose them with --columns)`,
      );
    }
    let row: string;
    try {
      row = csvRow(columns.map((c) => record[c]));
    } catch (err) {
      if (err instanceof RangeError) recordText(record, location);
      throw err;
    }
    await sink.write(count === 0 ? csvRow(columns) + row : row);
  };

  return {
    get count(): number {
      return count;
    },
    async write(record, location): Promise<void> {
      switch (format) {
        case 'jsonl':
          await sink.write(`${recordText(record, location)}\n`);
          break;
        case 'json':
          await sink.write(`${count === 0 ? '[\n' : ',\n'}  ${recordText(record, location)}`);
          break;
        case 'csv':
          await writeCsv(record, location);
          break;
      }
      count++;
    },
    async writeTexts(text, n): Promise<void> {
      if (n === 0) return;
      if (format === 'csv') throw new Error('CSV rows are written from records, not from their JSON text');
      if (format === 'json') await sink.write(`${count === 0 ? '[\n' : ',\n'}  `);
      await sink.write(text);
      count += n;
    },
    async finish(): Promise<void> {
      if (format === 'json') await sink.write(count === 0 ? '[]\n' : '\n]\n');
      if (format === 'csv' && count === 0 && columns !== undefined) await sink.write(csvRow(columns));
      await sink.finish();
    },
    abort: () => sink.abort(),
  };
}
