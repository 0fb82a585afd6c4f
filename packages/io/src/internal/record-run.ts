/**
 * The options and the summary shared by the record commands (`parl reward`, `parl
 * critical-steps`), whatever the input format.
 *
 * @module
 */
import type { ColumnarFormat } from '../columnar/columnar-format.js';
import type { RecordFormat } from '../read-records.js';
import type { OutputFormat } from '../record-writer.js';

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
  /** Worker threads labelling JSONL (default 1: labelled in the main thread). */
  readonly threads?: number;
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
  /** Detected input format (`jsonl` when the input was empty), or the columnar format of `--in`. */
  readonly input_format: RecordFormat | ColumnarFormat;
  /** Output format. */
  readonly output_format: OutputFormat | ColumnarFormat;
  /** Output path, or `stdout`. */
  readonly output: string;
}
