/**
 * A request body of spec §5 records (`POST /v1/rewards`): a JSON array (or one object), or NDJSON
 * (one record per line). Each record keeps where it came from (`record 3`, `line 17`), as
 * `parl reward` names them, and an unreadable line is worded as `parl reward` words it (bytes that
 * are not UTF-8 included: nothing is replaced by U+FFFD and read on).
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { ParlInputError } from '@parl/core';
import { jsonArrayElements, scansAsJsonArray } from './internal/json-array-elements.js';
import { unreadableLineError } from './internal/line-errors.js';

/** One record of a body, with its location. */
export interface BodyRecord {
  /** The parsed JSON value. */
  readonly value: unknown;
  /** `record N` (JSON document, 1-based) or `line N` (NDJSON, 1-based). */
  readonly location: string;
}

/** How a body was written, so the answer is written the same way. */
export type BodyFormat = 'json' | 'ndjson';

/** The records of a body, read one at a time, and how it was written. */
export interface BodyRecords {
  /** How the body was written. */
  readonly format: BodyFormat;
  /** The records in order; a line that is not a record throws when it is reached. */
  readonly records: Iterable<BodyRecord>;
}

/** A record with the bytes of the body it was read from, `[start, end)` (white space around it may be included). */
export interface RangedBodyRecord extends BodyRecord {
  /** Its first byte in the body. */
  readonly start: number;
  /** One past its last byte. */
  readonly end: number;
}

/** {@link BodyRecords} with each record's bytes, as the labelling engine reads a body. */
export interface RangedBodyRecords extends BodyRecords {
  /** The records, each with its bytes. */
  readonly records: Iterable<RangedBodyRecord>;
  /**
   * For a JSON document read element by element: read its elements (again), throwing as
   * reading the document whole would have (a document that is not JSON is refused before any of
   * its records is labelled). Absent for NDJSON, whose lines are refused as they are reached.
   */
  readonly readRest?: () => void;
  /**
   * Whether each record's bytes are its own (so that a run of records can be labelled apart from
   * the rest of the body): false only for an array that was parsed whole, whose records all carry
   * the whole body's range.
   */
  readonly sliceable: boolean;
}

function snippet(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

const LF = 0x0a;

/** The records of NDJSON `bytes`, parsed one line at a time (only the current line's text is decoded). */
function* lineRecords(bytes: Buffer): Generator<RangedBodyRecord> {
  let lineNo = 0;
  for (let from = 0; from < bytes.length; ) {
    const nl = bytes.indexOf(LF, from);
    const end = nl < 0 ? bytes.length : nl;
    lineNo++;
    const piece = bytes.subarray(from, end);
    from = end + 1;
    const text = isUtf8(piece) ? piece.toString('utf8').trim() : undefined;
    if (text === '') continue;
    const location = `line ${lineNo}`;
    let value: unknown;
    try {
      if (text === undefined) throw new Error('not UTF-8');
      value = JSON.parse(text) as unknown;
    } catch (err) {
      // Worded as `parl reward` words an unreadable JSONL line.
      throw unreadableLineError(text, err).at(location);
    }
    yield { value, location, start: end - piece.length, end };
  }
}

/** The elements of a parsed JSON array, each let go once it has been handed on (so a labeller holds one at a time besides the rest). */
function* arrayRecords(doc: unknown[]): Generator<BodyRecord> {
  for (let i = 0; i < doc.length; i++) {
    const value = doc[i];
    doc[i] = undefined;
    yield { value, location: `record ${i + 1}` };
  }
}

function* withRange(records: Iterable<BodyRecord>, length: number): Generator<RangedBodyRecord> {
  for (const r of records) yield { ...r, start: 0, end: length };
}

/** Whether `bytes` hold more than one line that is not blank. */
function severalLines(bytes: Buffer): boolean {
  let seen = 0;
  for (let from = 0; from < bytes.length; ) {
    const nl = bytes.indexOf(LF, from);
    const end = nl < 0 ? bytes.length : nl;
    if (bytes.subarray(from, end).toString('latin1').trim() !== '' && ++seen > 1) return true;
    from = end + 1;
  }
  return false;
}

/**
 * The elements of a JSON array body, each parsed by itself as it is reached (the body scans as
 * one array: see `jsonArrayElements`). An element that is not JSON means the body is not one
 * JSON document, which is refused as reading it whole refuses it: {@link documentError}.
 */
function* elementRecords(bytes: Buffer, contentType: string | undefined): Generator<RangedBodyRecord> {
  let i = 0;
  for (const [start, end] of jsonArrayElements(bytes)) {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8', start, end)) as unknown;
    } catch {
      throw documentError(bytes, contentType);
    }
    i++;
    yield { value, location: `record ${i}`, start, end };
  }
}

/** What reading a body that is not one JSON document whole throws (the records of an NDJSON body's first line included). */
function documentError(bytes: Buffer, contentType: string | undefined): Error {
  try {
    readWholeBody(bytes, contentType);
  } catch (err) {
    return err as Error;
  }
  // Several lines that are not one document: NDJSON, whose first line is the start of the array.
  try {
    for (const _ of lineRecords(bytes)) break;
  } catch (err) {
    return err as Error;
  }
  return new Error('a body that scans as a JSON array with an element that is not JSON read whole without error');
}

/**
 * The records of a body, read one at a time, each with its bytes. A JSON array is read element
 * by element (never parsed whole, so only the record being labelled is held as objects); anything
 * else as {@link readRecordsBody} reads it.
 *
 * @throws {@link @parl/core!ParlInputError} as {@link readRecordsBody}
 */
export function readRangedRecordsBody(bytes: Buffer, contentType: string | undefined): RangedBodyRecords {
  if (!isNdjsonType(contentType) && isUtf8(bytes) && scansAsJsonArray(bytes)) {
    const records = elementRecords(bytes, contentType);
    return {
      format: 'json',
      records,
      sliceable: true,
      // From the start again: the labeller's loop closed `records` when a record failed.
      readRest: () => {
        for (const _ of elementRecords(bytes, contentType)) {
          // Each element parsed and let go: only whether one is not JSON matters here.
        }
      },
    };
  }
  return readWholeBody(bytes, contentType);
}

function isNdjsonType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type.includes('ndjson') || type.includes('jsonl') || type.includes('jsonlines');
}

/**
 * The records of a body, read one at a time. NDJSON when the content type says so
 * (`application/x-ndjson`, `application/jsonl`) or when the body is several lines that are not
 * one JSON document.
 *
 * @throws {@link @parl/core!ParlInputError} naming the body for text that is neither (an NDJSON line that is not JSON throws when reached, naming its line)
 *
 * @example
 * ```ts
 * const { format, records } = readRecordsBody(Buffer.from('{"r_perf":1}\n{"r_perf":0}\n'), 'application/x-ndjson');
 * ```
 */
export function readRecordsBody(bytes: Buffer, contentType: string | undefined): BodyRecords {
  return readRangedRecordsBody(bytes, contentType);
}

/** The records of a body as {@link readRecordsBody} reads it, a JSON document parsed whole. */
function readWholeBody(bytes: Buffer, contentType: string | undefined): RangedBodyRecords {
  if (isNdjsonType(contentType)) return { records: lineRecords(bytes), format: 'ndjson', sliceable: true };
  let doc: unknown;
  try {
    if (!isUtf8(bytes)) throw new Error('the body is not UTF-8 text');
    doc = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    if (severalLines(bytes)) return { records: lineRecords(bytes), format: 'ndjson', sliceable: true };
    const text = isUtf8(bytes) ? snippet(bytes.toString('utf8').trim()) : '(bytes that are not UTF-8)';
    throw new ParlInputError('body', text, `a JSON array of records, one record, or NDJSON (${(err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ')})`);
  }
  // Elements of a parsed array have no bytes of their own here: the whole body stands for each.
  if (Array.isArray(doc)) return { records: withRange(arrayRecords(doc), bytes.length), format: 'json', sliceable: false };
  return { records: [{ value: doc, location: 'record 1', start: 0, end: bytes.length }], format: 'json', sliceable: true };
}

/**
 * The records of a body, all parsed (see {@link readRecordsBody}).
 *
 * @throws {@link @parl/core!ParlInputError} naming the line or the body for text that is not JSON
 *
 * @example
 * ```ts
 * parseRecordsBody('[{"r_perf":1}]', 'application/json').records[0]?.location; // 'record 1'
 * ```
 */
export function parseRecordsBody(text: string, contentType: string | undefined): { records: BodyRecord[]; format: BodyFormat } {
  const { format, records } = readRecordsBody(Buffer.from(text, 'utf8'), contentType);
  return { format, records: [...records] };
}
