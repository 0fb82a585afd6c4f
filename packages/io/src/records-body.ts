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
import { unreadableLineError } from './line-errors.js';

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

function snippet(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

const LF = 0x0a;

/** The records of NDJSON `bytes`, parsed one line at a time (only the current line's text is decoded). */
function* lineRecords(bytes: Buffer): Generator<BodyRecord> {
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
    yield { value, location };
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
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.includes('ndjson') || type.includes('jsonl') || type.includes('jsonlines')) return { records: lineRecords(bytes), format: 'ndjson' };
  let doc: unknown;
  try {
    if (!isUtf8(bytes)) throw new Error('the body is not UTF-8 text');
    doc = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    if (severalLines(bytes)) return { records: lineRecords(bytes), format: 'ndjson' };
    const text = isUtf8(bytes) ? snippet(bytes.toString('utf8').trim()) : '(bytes that are not UTF-8)';
    throw new ParlInputError('body', text, `a JSON array of records, one record, or NDJSON (${(err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ')})`);
  }
  if (Array.isArray(doc)) return { records: arrayRecords(doc), format: 'json' };
  return { records: [{ value: doc, location: 'record 1' }], format: 'json' };
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
