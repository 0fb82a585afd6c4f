/**
 * Reading and writing columnar record files one batch at a time: Arrow IPC with `apache-arrow`,
 * Parquet with `parquet-wasm` (each row group decoded to Arrow on its own; batches encoded into
 * row groups as they come).
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { RecordBatchFileWriter, RecordBatchReader, RecordBatchStreamWriter, tableToIPC, Table, type RecordBatch } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import type { TextSink } from '../../text-sink.js';
import { ParlInputError } from '@parl/core';
import { checkedArrowStream } from './arrow-framing.js';
import { parquetBatches } from './parquet-read.js';
import { arrowDamage } from './arrow-bytes.js';
import type { ColumnarFormat } from '../../columnar/columnar-format.js';

/** The record batches of a columnar file, in order. */
export async function* columnarBatches(format: ColumnarFormat, handle: FileHandle, path: string): AsyncGenerator<RecordBatch> {
  if (format === 'parquet') {
    yield* parquetBatches(path);
    return;
  }
  // Every message is checked before apache-arrow sees it (arrow-framing.ts): the file format is
  // read as the IPC stream it holds, its footer checked against the messages but never followed.
  const { size } = await handle.stat();
  let reader: AsyncIterable<RecordBatch>;
  try {
    reader = await RecordBatchReader.from(checkedArrowStream(handle, path, size));
    for await (const batch of reader) yield batch;
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    // What the checks let through and apache-arrow still refuses: named, never an unexpected error.
    throw arrowDamage(path, 'a message', err instanceof Error ? err.message.split('\n')[0] : String(err), 'one apache-arrow reads');
  }
}

/** Writes record batches of one schema into a columnar file. */
export interface ColumnarWriter {
  /** Append a batch. */
  write(batch: RecordBatch): Promise<void>;
  /** Close the file's structure (footer, end-of-stream marker). */
  finish(): Promise<void>;
}

/**
 * A {@link ColumnarWriter} of `format` over `sink`; `computed` names the columns the command adds
 * (Parquet writes them without dictionary encoding).
 */
export function columnarWriter(format: ColumnarFormat, sink: TextSink, computed: readonly string[] = []): ColumnarWriter {
  if (format === 'parquet') return parquetWriter(sink, computed);
  const writer = format === 'arrow' ? new RecordBatchFileWriter() : new RecordBatchStreamWriter();
  // The writer hands its bytes out as they are made; they go to the sink in order.
  const copied = (async (): Promise<void> => {
    for await (const bytes of writer) await sink.write(bytes);
  })();
  copied.catch(() => undefined);
  return {
    async write(batch) {
      writer.write(batch);
      // Let the copy catch up before the next batch: one batch's bytes in memory at a time.
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    async finish() {
      writer.finish();
      await copied;
    },
  };
}

/**
 * The Parquet writer's properties: Snappy compression, and no dictionary for the `computed`
 * columns. Their values (doubles, mostly distinct) fill a dictionary only to fall back to plain
 * encoding: less encoding time and a smaller file than parquet-wasm's defaults (dictionaries
 * everywhere, no compression) on the bench's reward output (`bench/label.mjs`; figures in
 * docs/benchmarks.md).
 */
function parquetWriterProperties(computed: readonly string[]): parquet.WriterProperties {
  let builder = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY);
  for (const name of computed) builder = builder.setColumnDictionaryEnabled(name, false);
  return builder.build();
}

/**
 * Parquet out, one row group per batch: each batch goes into WebAssembly as an Arrow IPC stream
 * and parquet-wasm's streaming writer turns it into a row group.
 */
function parquetWriter(sink: TextSink, computed: readonly string[]): ColumnarWriter {
  let push: ((batch: parquet.RecordBatch | null) => void) | undefined;
  const queue: (parquet.RecordBatch | null)[] = [];
  const batches = new ReadableStream<parquet.RecordBatch>({
    pull(controller) {
      const next = queue.shift();
      if (next === null) controller.close();
      else if (next !== undefined) controller.enqueue(next);
      else
        return new Promise<void>((resolve) => {
          push = (b) => {
            push = undefined;
            if (b === null) controller.close();
            else controller.enqueue(b);
            resolve();
          };
        });
      return undefined;
    },
  });
  let output: Promise<void> | undefined;
  const send = (batch: parquet.RecordBatch | null): void => {
    if (push !== undefined) push(batch);
    else queue.push(batch);
  };
  return {
    async write(batch) {
      const wasm = parquet.Table.fromIPCStream(tableToIPC(new Table(batch), 'stream'));
      for (const b of wasm.recordBatches()) send(b);
      output ??= (async () => {
        const bytes = await parquet.transformParquetStream(batches, parquetWriterProperties(computed));
        for await (const chunk of bytes as unknown as AsyncIterable<Uint8Array>) await sink.write(chunk);
      })();
    },
    async finish() {
      send(null);
      await output;
    },
  };
}
