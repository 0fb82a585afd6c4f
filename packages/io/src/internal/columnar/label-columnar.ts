/**
 * `parl reward` / `parl critical-steps` on columnar files: Parquet, Arrow IPC file or stream in,
 * the same columns out with the computed ones added (a computed column already present is
 * replaced in place, as a record's field is), batch by batch — a Parquet file row group by row
 * group, an Arrow file record batch by record batch — so memory is bounded by one batch.
 *
 * Libraries: `apache-arrow` (the Apache Arrow project's JavaScript implementation) holds the
 * batches and reads and writes Arrow IPC; `parquet-wasm` (the Rust `parquet` and `arrow` crates
 * compiled to WebAssembly) turns Parquet row groups into Arrow and back, nested lists included.
 * Both are loaded only here, when a columnar file is named.
 *
 * @module
 */
import { open } from 'node:fs/promises';
import { RecordBatch, RecordBatchReader, Schema, Field, Struct, makeData, type Data } from 'apache-arrow';
import { ParlInputError } from '@parl/core';
import { ParlIoError, describeFsError } from '../../errors.js';
import type { RecordIoOptions, RecordRunSummary } from '../record-run.js';
import type { LabelSpec } from '../../labellers.js';
import { openFileSink } from '../../text-sink.js';
import { batchLabeller, type BatchLabeller } from './computed-columns.js';
import type { ColumnarFormat } from '../../columnar/columnar-format.js';
import { columnarBatches, columnarWriter, type ColumnarWriter } from './columnar-io.js';

/** `batch` with `computed` columns: one already there takes its place, the others follow in order. */
export function withComputedColumns(batch: RecordBatch, names: readonly string[], computed: Map<string, Data>): RecordBatch {
  const fields = [...batch.schema.fields];
  const children = [...batch.data.children] as Data[];
  for (const name of names) {
    const data = computed.get(name);
    if (data === undefined) continue;
    const field = new Field(name, data.type, true);
    const at = fields.findIndex((f) => f.name === name);
    if (at >= 0) {
      fields[at] = field;
      children[at] = data;
    } else {
      fields.push(field);
      children.push(data);
    }
  }
  const schema = new Schema(fields, batch.schema.metadata);
  return new RecordBatch(schema, makeData({ type: new Struct(fields), length: batch.numRows, nullCount: 0, children }));
}

/**
 * Label a columnar file into a columnar file.
 *
 * @throws {@link ParlIoError} for an unreadable input, an output that is not columnar, or `--on-error skip`
 * @throws {@link @parl/core!ParlInputError} for the first bad row (`row N: field must be …`)
 */
export async function labelColumnar(
  command: string,
  options: RecordIoOptions,
  spec: LabelSpec,
  formats: { readonly input: ColumnarFormat; readonly output: ColumnarFormat | undefined },
): Promise<RecordRunSummary> {
  const inPath = options.in as string;
  if (formats.output === undefined || options.out === undefined) {
    throw new ParlIoError(`a ${formats.input} input is written as Parquet or Arrow: give --out FILE.parquet, FILE.arrow or FILE.arrows`, 2);
  }
  if (options.onError === 'skip') {
    throw new ParlIoError('--on-error skip is for JSON and JSONL records; a columnar file is labelled whole or not at all', 2);
  }
  let handle;
  try {
    handle = await open(inPath, 'r');
  } catch (err) {
    throw new ParlIoError(`cannot read --in ${inPath}: ${describeFsError(err)}`);
  }
  const sink = await openFileSink(options.out);
  let rows = 0;
  try {
    let writer: ColumnarWriter | undefined;
    let labeller: BatchLabeller | undefined;
    for await (const batch of columnarBatches(formats.input, handle, inPath)) {
      labeller ??= batchLabeller(spec, batch.schema.fields.some((f) => f.name === 'stages'));
      writer ??= columnarWriter(formats.output, sink, labeller.names);
      const labelled = withComputedColumns(batch, labeller.names, labeller.columns(batch, rows + 1));
      rows += batch.numRows;
      await writer.write(labelled);
    }
    writer ??= columnarWriter(formats.output, sink);
    await writer.finish();
    await sink.finish();
  } catch (err) {
    await sink.abort();
    if (err instanceof ParlInputError || err instanceof ParlIoError) throw err;
    throw new ParlIoError(`cannot label --in ${inPath} (${formats.input}): ${err instanceof Error ? err.message : String(err)}`, 2);
  } finally {
    await handle.close();
  }
  return {
    command,
    records_read: rows,
    records_written: rows,
    records_skipped: 0,
    input_format: formats.input,
    output_format: formats.output,
    output: options.out,
  };
}
