/**
 * The loop shared by `parl reward` and `parl critical-steps`: read records, label each one with a
 * core function, write them out; stop on the first bad record or skip bad ones. JSONL goes in
 * chunks (one thread or several), a JSON document record by record, a Parquet or Arrow file batch
 * by batch (loaded only then).
 *
 * @module
 */
import { ParlInputError, recordFieldHints, withLabelFields } from '@parl/core';
import { columnarFormatOf } from './columnar/columnar-format.js';
import { ParlIoError } from './errors.js';
import { LineReader } from './input-lines.js';
import { badRecordError, hintMessage, labelChunk } from './label-chunk.js';
import { labelJsonlChunks, type ChunkLabeller } from './internal/label-jsonl.js';
import { labelFieldsOf, labelSpecOf, type LabelFieldsOf, type LabelSpec } from './labellers.js';
import { FIRST_LINE_PEEK_BYTES, isUnreadable, jsonlDecidedAtFirstLine, openInput, readRecords, type RecordFormat } from './read-records.js';
import { createRecordWriter, type OutputFormat, type RecordWriter } from './record-writer.js';
import type { RecordIoOptions, RecordRunSummary } from './internal/record-run.js';
import { openTextSink } from './text-sink.js';

export { ON_ERROR_CHOICES, type OnError, type RecordIoOptions, type RecordRunSummary } from './internal/record-run.js';

/** The streams a labelling run talks through: records in and out when no file is named, messages to `stderr`. */
export interface LabelStreams {
  /** Where records are read from when no `in` is given. */
  readonly stdin: NodeJS.ReadableStream;
  /** Where records go when no `out` is given. */
  readonly stdout: NodeJS.WritableStream;
  /** Warnings, skipped records, notes: one line each. */
  readonly stderr: NodeJS.WritableStream;
}

/** Write one line to `io`'s stderr. */
function logLine(io: LabelStreams, line: string): void {
  io.stderr.write(`${line}\n`);
}

/**
 * Stream records through the labelling `spec` describes. JSONL input is labelled chunk by chunk
 * (see `labelJsonlChunks`): each record written as its own line with the computed fields
 * appended where that gives the same record (see `appendLabelFields`), in this thread or in
 * `threads` worker threads, in input order either way. A JSON document, or CSV output, goes
 * record by record. Memory stays bounded by the largest record (and a few chunks); the output
 * file, when there is one, appears under its name only when every record is done.
 *
 * @param command - the command name, for messages
 * @param options - where records come from and go to (`in`, `out`, `format`, `threads`, `onError`, …)
 * @param io - the standard streams used when `in` or `out` is absent
 * @param labelling - the labelling and its resolved config (see {@link labelFieldsOf})
 * @throws {@link @parl/core!ParlInputError} for a bad option, or the first bad record under `fail` (the output is dropped)
 */
export async function labelStream(command: string, options: RecordIoOptions, io: LabelStreams, labelling: LabelSpec): Promise<RecordRunSummary> {
  const onError = options.onError ?? 'fail';
  const spec = labelSpecOf(labelling);
  const fieldsOf = labelFieldsOf(spec);
  const columnarIn = columnarFormatOf(options.in);
  const columnarOut = columnarFormatOf(options.out);
  if (columnarIn !== undefined) {
    const { labelColumnar } = await import('./internal/columnar/label-columnar.js');
    return labelColumnar(command, options, spec, { input: columnarIn, output: columnarOut });
  }
  if (columnarOut !== undefined) {
    throw new ParlIoError(`--out ${options.out ?? ''} is ${columnarOut === 'parquet' ? 'Parquet' : 'Arrow IPC'}, written only from a Parquet or Arrow input (--in FILE.parquet, .arrow or .arrows)`, 2);
  }
  const input = await openInput(options.in, io.stdin);
  if (options.in === undefined && (io.stdin as { isTTY?: boolean }).isTTY === true) {
    logLine(io, `parl ${command}: reading records from the terminal (end with Ctrl-D; --in FILE reads a file)`);
  }
  let writer: RecordWriter | undefined;
  let inputFormat: RecordFormat = 'jsonl';
  let outputFormat: OutputFormat = options.format ?? 'jsonl';
  let read = 0;
  let skipped = 0;
  const openWriter = async (format: RecordFormat): Promise<RecordWriter> => {
    inputFormat = format;
    outputFormat = options.format ?? format;
    const sink = await openTextSink(options.out, io.stdout);
    return createRecordWriter(outputFormat, sink, {
      ...(options.columns === undefined ? {} : { columns: options.columns }),
      warn: (message) => logLine(io, `parl ${command}: note: ${message}`),
    });
  };
  // A field that looks like a misspelt spec field is named once, at its first record.
  const typosSeen = new Set<string>();
  const warnFieldTypos = (value: unknown, location: string): void => {
    for (const hint of recordFieldHints(value)) {
      const key = `${hint.field.replace(/\[\d+\]/g, '[]')}→${hint.suggestion}`;
      if (typosSeen.has(key)) continue;
      typosSeen.add(key);
      logLine(io, `parl ${command}: warning: ${location}: ${hint.message} (it is kept as an extra field and not read)`);
    }
  };
  const skipOrThrow = (err: ParlInputError): void => {
    if (onError !== 'skip') throw err;
    skipped++;
    logLine(io, `parl ${command}: skipped ${err.message}`);
  };
  const reader = new LineReader(input);
  let detected: RecordFormat | undefined;
  try {
    if (await readsInChunks(reader, options.format)) {
      detected = 'jsonl';
      const jsonlWriter = await openWriter('jsonl');
      writer = jsonlWriter;
      const threads = options.threads ?? 1;
      const labeller =
        threads > 1 ? await (await import('./label-pool.js')).createLabelPool(threads, spec) : inThreadLabeller(fieldsOf);
      await labelJsonlChunks(
        reader,
        labeller,
        async (chunk, firstLine) => {
          for (const event of chunk.events) {
            if (event.kind === 'error') {
              skipOrThrow(badRecordError(event, firstLine));
            } else if (!typosSeen.has(event.key)) {
              typosSeen.add(event.key);
              logLine(io, `parl ${command}: ${hintMessage(event, firstLine)}`);
            }
          }
          read += chunk.read;
          await jsonlWriter.writeTexts(chunk.text, chunk.written);
        },
        { format: outputFormat === 'json' ? 'json' : 'jsonl' },
      );
    } else {
      for await (const item of readRecords(reader, { onFormat: (format) => (detected = format) })) {
        read++;
        writer ??= await openWriter(item.format);
        try {
          if (isUnreadable(item)) throw item.error;
          warnFieldTypos(item.value, item.location);
          await writer.write(withLabelFields(item.value as Record<string, unknown>, fieldsOf(item.value, item.location)), item.location);
        } catch (err) {
          if (!(err instanceof ParlInputError)) throw err;
          skipOrThrow(err);
        }
      }
    }
    writer ??= await openWriter(detected ?? 'jsonl');
    await writer.finish();
  } catch (err) {
    await writer?.abort();
    throw err;
  }
  if (read === 0) logLine(io, `parl ${command}: 0 records read (${detected === undefined ? 'the input is empty' : 'an empty JSON array'})`);
  if (skipped > 0) logLine(io, `parl ${command}: skipped ${skipped} of ${read} records`);
  return {
    command,
    records_read: read,
    records_written: writer.count,
    records_skipped: skipped,
    input_format: inputFormat,
    output_format: outputFormat,
    output: options.out ?? 'stdout',
  };
}

/**
 * Whether the input is JSONL from its first line on and the output is text a chunk can hold (JSONL
 * or JSON): then it is labelled in chunks, else record by record. Nothing is consumed.
 */
async function readsInChunks(reader: LineReader, format: OutputFormat | undefined): Promise<boolean> {
  if (format === 'csv') return false;
  const first = await reader.peekNonBlank();
  if (first === undefined || first === 0x5b) return false;
  const { head, atEnd } = await reader.peekHead(FIRST_LINE_PEEK_BYTES);
  return jsonlDecidedAtFirstLine(head, atEnd);
}

/** Chunks labelled in this thread, one at a time. */
function inThreadLabeller(fieldsOf: LabelFieldsOf): ChunkLabeller {
  const hintsSeen = new Set<string>();
  return {
    inFlight: 1,
    label: (job) => labelChunk(job, fieldsOf, hintsSeen),
    close: () => Promise.resolve(),
  };
}
