/**
 * A request body of spec §5 records (`POST /v1/rewards`): a JSON array (or one object), or NDJSON (one record per
 * line). Each record keeps where it came from (`record 3`, `line 17`), as `parl reward` names them.
 *
 * @module
 */
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

function snippet(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function parseLines(text: string): BodyRecord[] {
  const out: BodyRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    const location = `line ${i + 1}`;
    try {
      out.push({ value: JSON.parse(line) as unknown, location });
    } catch (err) {
      // Worded as `parl reward` words an unreadable JSONL line.
      throw unreadableLineError(line, err).at(location);
    }
  }
  return out;
}

/**
 * The records of a body. NDJSON when the content type says so (`application/x-ndjson`,
 * `application/jsonl`) or when the body is several lines that are not one JSON document.
 *
 * @throws {@link @parl/core!ParlInputError} naming the line or the body for text that is not JSON
 */
export function parseRecordsBody(text: string, contentType: string | undefined): { records: BodyRecord[]; format: BodyFormat } {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.includes('ndjson') || type.includes('jsonl') || type.includes('jsonlines')) return { records: parseLines(text), format: 'ndjson' };
  let doc: unknown;
  try {
    doc = JSON.parse(text) as unknown;
  } catch (err) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 1) return { records: parseLines(text), format: 'ndjson' };
    throw new ParlInputError('body', snippet(text.trim()), `a JSON array of records, one record, or NDJSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (Array.isArray(doc)) return { records: doc.map((value, i) => ({ value: value as unknown, location: `record ${i + 1}` })), format: 'json' };
  return { records: [{ value: doc, location: 'record 1' }], format: 'json' };
}
