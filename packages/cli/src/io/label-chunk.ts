/**
 * Labelling a chunk of whole JSONL lines in one call — the unit of work of `parl reward` and
 * `parl critical-steps` on JSONL, run in the main thread or in a worker thread. Lines are read
 * exactly as {@link readRecords} reads them (split on LF, each checked to be UTF-8, trimmed, blank
 * ones passed over) and each record is written by {@link appendLabelFields} where it can be, else
 * by `JSON.stringify` of the merged record. What the caller has to say (warnings, bad records) is
 * returned as events in line order, with the messages the record-by-record loop prints.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { ParlInputError, recordFieldHints, withLabelFields } from '@parl/core';
import { appendLabelFields } from './append-fields.js';
import type { LabelFieldsOf } from './labellers.js';
import { unreadableLineError } from './line-errors.js';
import { recordText } from './record-writer.js';

/** The output formats a chunk can be written in (CSV needs the records, not their text). */
export type ChunkOutputFormat = 'jsonl' | 'json';

/** A chunk of input to label. */
export interface LabelChunkJob {
  /** Whole lines, each ended by LF; only the input's last line may lack it. */
  readonly bytes: Uint8Array;
  /** The line number of the chunk's first line (1-based). */
  readonly firstLine: number;
  /** The output format: JSONL lines, or the elements of a JSON array. */
  readonly format: ChunkOutputFormat;
}

/** A misspelt-field warning, to print once per `key` over the whole run. */
export interface ChunkHint {
  /** `hint`. */
  readonly kind: 'hint';
  /** The field (with stage indices dropped) and the suggestion: one warning per key. */
  readonly key: string;
  /** `warning: line N: …` (the command name goes in front). */
  readonly message: string;
}

/** A bad record (a {@link @parl/core!ParlInputError}, as plain data a worker can send). */
export interface ChunkBadRecord {
  /** `error`. */
  readonly kind: 'error';
  /** The error's field path. */
  readonly field: string;
  /** The offending value (undefined when it could not be sent from a worker). */
  readonly value: unknown;
  /** What was expected. */
  readonly expected: string;
  /** `line N`. */
  readonly location: string;
  /** The error's message, `line N: field must be …, got …`. */
  readonly message: string;
}

/** What a chunk said, in line order. */
export type ChunkEvent = ChunkHint | ChunkBadRecord;

/** A labelled chunk. */
export interface LabelledChunk {
  /** The records' output as UTF-8: JSONL lines (each with its LF), or JSON array elements joined by `,\n  `. */
  readonly text: Uint8Array;
  /** Records in {@link text}. */
  readonly written: number;
  /** Records read: non-blank lines, good and bad. */
  readonly read: number;
  /** Warnings and bad records, in line order. */
  readonly events: ChunkEvent[];
}

/** The separator between two records in `format`'s output. */
export function chunkRecordSeparator(format: ChunkOutputFormat): string {
  return format === 'jsonl' ? '\n' : ',\n  ';
}

/** A {@link ParlInputError} as a {@link ChunkBadRecord}. */
function badRecord(err: ParlInputError): ChunkBadRecord {
  return { kind: 'error', field: err.field, value: err.value, expected: err.expected, location: err.location ?? '', message: err.message };
}

/** The {@link ParlInputError} a {@link ChunkBadRecord} describes, with the very same message. */
export function badRecordError(event: ChunkBadRecord): ParlInputError {
  const err = new ParlInputError(event.field, event.value, event.expected, event.location);
  if (err.message !== event.message) Object.defineProperty(err, 'message', { value: event.message });
  return err;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Label every record in `job`. `hintsSeen` holds the warning keys already reported by this
 * labeller (a key is reported at its first line only); a record's own failure is an event, any
 * other exception (a bug) is thrown.
 *
 * @param job - the lines and where they start
 * @param fieldsOf - the command's computed fields for one record
 * @param hintsSeen - warning keys reported so far, updated
 */
export function labelChunk(job: LabelChunkJob, fieldsOf: LabelFieldsOf, hintsSeen: Set<string>): LabelledChunk {
  const out = new OutputBytes(job.bytes.byteLength * 2 + 1024);
  const separator = chunkRecordSeparator(job.format);
  let written = 0;
  const events: ChunkEvent[] = [];
  let read = 0;
  const labelLine = (raw: string | undefined, lineNo: number): void => {
    const text = raw?.trim();
    if (text === '') return;
    read++;
    const location = `line ${lineNo}`;
    let value: unknown;
    try {
      if (text === undefined) throw new Error('not UTF-8');
      value = JSON.parse(text);
    } catch (err) {
      events.push(badRecord(unreadableLineError(text, err).at(location)));
      return;
    }
    for (const hint of recordFieldHints(value)) {
      const key = `${hint.field.replace(/\[\d+\]/g, '[]')}→${hint.suggestion}`;
      if (hintsSeen.has(key)) continue;
      hintsSeen.add(key);
      events.push({ kind: 'hint', key, message: `warning: ${location}: ${hint.message} (it is kept as an extra field and not read)` });
    }
    try {
      const fields = fieldsOf(value, location);
      const record = value as Record<string, unknown>;
      const fast = isPlainObject(value) ? appendLabelFields(text as string, record, fields) : undefined;
      const line = fast ?? recordText(withLabelFields(record, fields), location);
      if (written > 0 && job.format === 'json') out.write(separator);
      out.write(line);
      if (job.format === 'jsonl') out.write('\n');
      written++;
    } catch (err) {
      if (!(err instanceof ParlInputError)) throw err;
      events.push(badRecord(err));
    }
  };
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  let lineNo = job.firstLine;
  if (isUtf8(bytes)) {
    const all = bytes.toString('utf8');
    let from = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', from)) {
      labelLine(all.slice(from, nl), lineNo++);
      from = nl + 1;
    }
    if (from < all.length) labelLine(all.slice(from), lineNo);
  } else {
    let from = 0;
    const line = (piece: Buffer): string | undefined => (isUtf8(piece) ? piece.toString('utf8') : undefined);
    for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, from)) {
      labelLine(line(bytes.subarray(from, nl)), lineNo++);
      from = nl + 1;
    }
    if (from < bytes.length) labelLine(line(bytes.subarray(from)), lineNo);
  }
  return { text: out.bytes(), written, read, events };
}

/**
 * A growing UTF-8 buffer the chunk's lines are written into one by one: each line's string dies
 * young instead of being held (with the pieces it was concatenated from) until the chunk ends.
 */
class OutputBytes {
  private buffer: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  write(text: string): void {
    // At most 3 bytes per UTF-16 unit.
    const most = text.length * 3;
    if (this.length + most > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + most));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** The bytes written, over a buffer of their own (it can be transferred to another thread). */
  bytes(): Uint8Array {
    return new Uint8Array(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }
}
