/**
 * The error for a JSONL line that is not a record at all (not UTF-8, or not JSON), shared by the
 * record-by-record reader and the chunk labeller so both word it the same.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** A line cut to 60 characters for a message. */
function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Why a JSONL line could not be read: `text` undefined for bytes that are not UTF-8, else the
 * JSON.parse failure `err`. Not located yet (the caller adds `line N`).
 */
export function unreadableLineError(text: string | undefined, err: unknown): ParlInputError {
  if (text === undefined) return new ParlInputError('record', '(bytes that are not UTF-8)', 'a line of valid UTF-8 text');
  // JSON.parse quotes the text around the fault, line breaks included: the message stays one line.
  const reason = (err instanceof Error ? err.message : String(err)).replace(/[\r\n]+/g, ' ');
  return new ParlInputError('record', excerpt(text), `valid JSON (${reason})`);
}
