/**
 * Labelling a chunk of whole JSONL lines in one call — the unit of work of `parl reward` and
 * `parl critical-steps` on JSONL, run in the main thread or in a worker thread. Lines are read
 * exactly as {@link readRecords} reads them (split on LF, each checked to be UTF-8, trimmed, blank
 * ones passed over) and each record is written by `labelFieldsTail` where it can be, else
 * by `JSON.stringify` of the merged record. What the caller has to say (warnings, bad records) is
 * returned as events in line order, with the messages the record-by-record loop prints.
 *
 * @module
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { ParlInputError, recordFieldHints, recordText, withLabelFields } from '@parl/core';
import { labelFieldsTail } from './append-fields.js';
import type { LabelFieldsOf } from './labellers.js';
import { unreadableLineError } from './internal/line-errors.js';
import { OutputBytes } from './internal/output-bytes.js';

/** The output formats a chunk can be written in (CSV needs the records, not their text). */
export type ChunkOutputFormat = 'jsonl' | 'json';

/** A chunk of input to label. */
export interface LabelChunkJob {
  /** Whole lines, each ended by LF; only the input's last line may lack it. */
  readonly bytes: Uint8Array;
  /** The output format: JSONL lines, or the elements of a JSON array. */
  readonly format: ChunkOutputFormat;
}

/**
 * A misspelt-field warning, to print once per `key` over the whole run. Its line is counted from
 * the chunk's first line: the chunk is labelled before the lines ahead of it are counted.
 */
export interface ChunkHint {
  /** `hint`. */
  readonly kind: 'hint';
  /** The field (with stage indices dropped) and the suggestion: one warning per key. */
  readonly key: string;
  /** The line in the chunk (its first line is 1). */
  readonly line: number;
  /** What follows `warning: line N: `. */
  readonly detail: string;
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
  /** The line in the chunk (its first line is 1). */
  readonly line: number;
  /** The error's message after its `line N: `: `field must be …, got …`. */
  readonly detail: string;
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
  /** Line feeds in the chunk: the next chunk's first line is this chunk's plus `lines`. */
  readonly lines: number;
  /** Warnings and bad records, in line order. */
  readonly events: ChunkEvent[];
}

/** The separator between two records in `format`'s output. */
export function chunkRecordSeparator(format: ChunkOutputFormat): string {
  return format === 'jsonl' ? '\n' : ',\n  ';
}

/** `line N`, the location of line `line` of a chunk that starts at line `firstLine` of the input. */
function chunkLineLocation(firstLine: number, line: number): string {
  return `line ${firstLine + line - 1}`;
}

/** A {@link ParlInputError} raised at line `line` of the chunk, as a {@link ChunkBadRecord}. */
function badRecord(err: ParlInputError, line: number): ChunkBadRecord {
  const prefix = `${err.location ?? ''}: `;
  const detail = err.location !== undefined && err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
  return { kind: 'error', field: err.field, value: err.value, expected: err.expected, line, detail };
}

/**
 * The {@link ParlInputError} a {@link ChunkBadRecord} describes, at its line of the input (the
 * chunk starts at line `firstLine`), with the message the record-by-record loop gives.
 */
export function badRecordError(event: ChunkBadRecord, firstLine: number): ParlInputError {
  const location = chunkLineLocation(firstLine, event.line);
  const err = new ParlInputError(event.field, event.value, event.expected, location);
  const message = `${location}: ${event.detail}`;
  if (err.message !== message) Object.defineProperty(err, 'message', { value: message });
  return err;
}

/** The warning a {@link ChunkHint} prints, at its line of the input (the chunk starts at line `firstLine`). */
export function hintMessage(event: ChunkHint, firstLine: number): string {
  return `warning: ${chunkLineLocation(firstLine, event.line)}: ${event.detail}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Label every record in `job`. `hintsSeen` holds the warning keys already reported by this
 * labeller (a key is reported at its first line only); a record's own failure is an event, any
 * other exception (a bug) is thrown. Lines are numbered from 1 within the chunk (messages say
 * `line N` of the chunk; the caller shifts them, see {@link badRecordError}).
 *
 * A record on the fast path is written as the bytes of its input line with the computed fields
 * in place of its closing brace (`labelFieldsTail`): the record's text is copied, not
 * encoded again.
 *
 * @param job - the lines
 * @param fieldsOf - the command's computed fields for one record
 * @param hintsSeen - warning keys reported so far, updated
 */
export function labelChunk(job: LabelChunkJob, fieldsOf: LabelFieldsOf, hintsSeen: Set<string>): LabelledChunk {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  // The output is about twice the input for `reward`; pages never written are never touched.
  const out = new OutputBytes(bytes.byteLength * 3 + 1024);
  const separator = chunkRecordSeparator(job.format);
  const jsonl = job.format === 'jsonl';
  // ASCII text (the usual case) is a byte per character: a line's characters and bytes are at
  // the same offsets, and its text is written without UTF-8 encoding.
  const oneBytePerChar = isAscii(bytes);
  let written = 0;
  const events: ChunkEvent[] = [];
  let read = 0;
  /** Label line `lineNo` of the chunk: `raw`, its text (undefined if not UTF-8), at bytes `start`…`end`. */
  const labelLine = (raw: string | undefined, lineNo: number, start: number, end: number): void => {
    const text = raw?.trim();
    if (text === '') return;
    read++;
    const location = `line ${lineNo}`;
    let value: unknown;
    try {
      if (text === undefined) throw new Error('not UTF-8');
      value = JSON.parse(text);
    } catch (err) {
      events.push(badRecord(unreadableLineError(text, err).at(location), lineNo));
      return;
    }
    for (const hint of recordFieldHints(value)) {
      const key = `${hint.field.replace(/\[\d+\]/g, '[]')}→${hint.suggestion}`;
      if (hintsSeen.has(key)) continue;
      hintsSeen.add(key);
      events.push({ kind: 'hint', key, line: lineNo, detail: `${hint.message} (it is kept as an extra field and not read)` });
    }
    try {
      const fields = fieldsOf(value, location);
      const record = value as Record<string, unknown>;
      const tail = isPlainObject(value) ? labelFieldsTail(text as string, record, fields) : undefined;
      const full = tail === undefined ? recordText(withLabelFields(record, fields), location) : undefined;
      if (written > 0 && !jsonl) out.writeAscii(separator);
      if (full !== undefined) {
        out.writeText(full);
      } else {
        // The record's own text, all but its closing brace when fields follow.
        const kept = tail === '' ? (text as string).length : (text as string).length - 1;
        if (oneBytePerChar) out.writeAscii(text as string, kept);
        // The line's bytes (it is the record's text, untrimmed): its closing brace is its last byte.
        else if ((raw as string).length === (text as string).length) out.copyBytes(bytes, start, tail === '' ? end : end - 1);
        else out.writeText((text as string).slice(0, kept));
        out.writeAscii(tail as string);
      }
      if (jsonl) out.writeByte(LF);
      written++;
    } catch (err) {
      if (!(err instanceof ParlInputError)) throw err;
      events.push(badRecord(err, lineNo));
    }
  };
  let lineNo = 1;
  if (oneBytePerChar || isUtf8(bytes)) {
    // ASCII decodes as Latin-1 to the same text, without UTF-8 decoding.
    const all = bytes.toString(oneBytePerChar ? 'latin1' : 'utf8');
    let from = 0;
    let byteFrom = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', from)) {
      const byteEnd = oneBytePerChar ? nl : bytes.indexOf(LF, byteFrom);
      labelLine(all.slice(from, nl), lineNo++, byteFrom, byteEnd);
      from = nl + 1;
      byteFrom = byteEnd + 1;
    }
    if (from < all.length) labelLine(all.slice(from), lineNo, byteFrom, bytes.length);
  } else {
    let from = 0;
    const line = (piece: Buffer): string | undefined => (isUtf8(piece) ? piece.toString('utf8') : undefined);
    for (let nl = bytes.indexOf(LF); nl >= 0; nl = bytes.indexOf(LF, from)) {
      labelLine(line(bytes.subarray(from, nl)), lineNo++, from, nl);
      from = nl + 1;
    }
    if (from < bytes.length) labelLine(line(bytes.subarray(from)), lineNo, from, bytes.length);
  }
  return { text: out.bytes(), written, read, lines: lineNo - 1, events };
}

const LF = 0x0a;
