/**
 * The loop shared by `parl reward` and `parl critical-steps`: read records, label each one with a
 * core function, write them out; stop on the first bad record or skip bad ones.
 *
 * @module
 */
import { ParlInputError, recordFieldHints } from '@parl/core';
import { logLine, type CliIo } from './cli-io.js';
import { isUnreadable, openInput, readRecords, type RecordFormat } from './read-records.js';
import { createRecordWriter, type OutputFormat, type RecordWriter } from './record-writer.js';
import { openTextSink } from './text-sink.js';

/** What to do with a bad record: stop with exit code 2 (`fail`, default) or report it and go on (`skip`). */
export type OnError = 'fail' | 'skip';

/** The `--on-error` choices. */
export const ON_ERROR_CHOICES: readonly OnError[] = ['fail', 'skip'];

/** Input and output options shared by the record commands. */
export interface RecordIoOptions {
  /** Input file; stdin when absent. */
  readonly in?: string;
  /** Output file (written atomically); stdout when absent. */
  readonly out?: string;
  /** Output format; by default the input's (JSON in, JSON out; JSONL in, JSONL out). */
  readonly format?: OutputFormat;
  /** CSV columns (default: the first record's fields). */
  readonly columns?: readonly string[];
  /** Bad-record policy (default `fail`). */
  readonly onError?: OnError;
}

/** What a record command did, as printed by `--json`. */
export interface RecordRunSummary {
  /** The command, e.g. `reward`. */
  readonly command: string;
  /** Records read (good and bad). */
  readonly records_read: number;
  /** Records written. */
  readonly records_written: number;
  /** Records skipped under `--on-error skip`. */
  readonly records_skipped: number;
  /** Detected input format (`jsonl` when the input was empty). */
  readonly input_format: RecordFormat;
  /** Output format. */
  readonly output_format: OutputFormat;
  /** Output path, or `stdout`. */
  readonly output: string;
}

/** Labels one record; throws {@link @parl/core!ParlInputError} for a bad one. */
export type RecordLabeller = (value: unknown, location: string) => Readonly<Record<string, unknown>>;

/**
 * Stream records through `label`. JSONL input is processed one line at a time with bounded
 * buffers (constant memory); the output file, when there is one, appears under its name only
 * when every record is done.
 *
 * @param command - the command name, for messages
 * @throws {@link @parl/core!ParlInputError} for the first bad record under `fail` (the output is dropped)
 */
export async function labelStream(command: string, options: RecordIoOptions, io: CliIo, label: RecordLabeller): Promise<RecordRunSummary> {
  const onError = options.onError ?? 'fail';
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
  let detected: RecordFormat | undefined;
  try {
    for await (const item of readRecords(input, { onFormat: (format) => (detected = format) })) {
      read++;
      writer ??= await openWriter(item.format);
      try {
        if (isUnreadable(item)) throw item.error;
        warnFieldTypos(item.value, item.location);
        await writer.write(label(item.value, item.location), item.location);
      } catch (err) {
        if (onError === 'skip' && err instanceof ParlInputError) {
          skipped++;
          logLine(io, `parl ${command}: skipped ${err.message}`);
          continue;
        }
        throw err;
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
