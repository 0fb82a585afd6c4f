/**
 * Small columnar files for the damage and fuzz tests: a table of spec §5 records as Arrow IPC
 * (file and stream formats) and as Parquet, and a labelling run over a file that reports how it
 * ended.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ParlInputError } from '@parl/core';
import { Table, tableFromArrays, tableToIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { labelStream, ParlIoError } from '../../src/index.js';

/** `batches` batches of `rows` records each (several, so that a cut between two is possible). */
export function recordsTable(rows = 40, batches = 3): Table {
  const whole = batchOf(rows * batches);
  return new Table(Array.from({ length: batches }, (_, b) => whole.slice(b * rows, (b + 1) * rows).batches).flat());
}

function batchOf(rows: number): Table {
  return tableFromArrays({
    id: Array.from({ length: rows }, (_, i) => `r${i}`),
    r_perf: Float64Array.from({ length: rows }, (_, i) => (i % 10) / 10),
    num_subagents: Float64Array.from({ length: rows }, (_, i) => i % 7),
  });
}

/** The bytes of `table` in `format` (`arrow`: file format; `arrows`: stream format; `parquet`). */
export function columnarBytes(table: Table, format: 'arrow' | 'arrows' | 'parquet', batchRows = 40): Uint8Array {
  if (format === 'parquet') {
    const wasm = parquet.Table.fromIPCStream(tableToIPC(table, 'stream'));
    const props = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(batchRows).build();
    return parquet.writeParquet(wasm, props);
  }
  return tableToIPC(table, format === 'arrow' ? 'file' : 'stream');
}

/** How a labelling run over a file ended. */
export type RunEnd = { readonly ok: true; readonly rows: number } | { readonly ok: false; readonly error: Error };

/** Run `parl reward`'s engine from `dir/in.EXT` (written with `bytes`) to `dir/out.arrows`. */
export async function labelFile(dir: string, format: 'arrow' | 'arrows' | 'parquet', bytes: Uint8Array): Promise<RunEnd> {
  const input = join(dir, `in.${format}`);
  writeFileSync(input, bytes);
  const streams = { stdin: Readable.from([]), stdout: new PassThrough(), stderr: new PassThrough() };
  try {
    const summary = await labelStream('reward', { in: input, out: join(dir, 'out.arrows') }, streams, { command: 'reward', config: {} });
    return { ok: true, rows: summary.records_read };
  } catch (err) {
    return { ok: false, error: err as Error };
  }
}

/** Whether `err` is one of the named, one-line errors a damaged input must give (exit code 2). */
export function isNamedInputError(err: Error): boolean {
  const oneLine = !err.message.includes('\n');
  if (err instanceof ParlInputError) return oneLine;
  return err instanceof ParlIoError && err.exitCode === 2 && oneLine;
}

/** The files in `dir` other than the input: the previous output must be as it was, and no temp file left. */
export function outputsIn(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) if (!name.startsWith('in.')) out[name] = existsSync(join(dir, name)) ? readFileSync(join(dir, name)).toString('hex') : '';
  return out;
}
