/**
 * A labelled record's JSON text, for every writer of records (`parl reward`, `parl serve`).
 *
 * @module
 */
import { ParlInputError } from './errors.js';

/**
 * A record's JSON text, as `JSON.stringify` writes it. A value nested so deeply that
 * `JSON.stringify` runs out of stack (`JSON.parse` reads any depth) is a bad record, named by its
 * location, not a crash of the command or a server error.
 *
 * @param record - the record (any JSON value)
 * @param location - where it came from (`line 17`, `record 3`), for the message
 * @throws {@link ParlInputError} for a record nested too deeply to write
 *
 * @example
 * ```ts
 * recordText({ r_perf: 1 }, 'line 1'); // '{"r_perf":1}'
 * ```
 */
export function recordText(record: unknown, location: string): string {
  try {
    return JSON.stringify(record);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new ParlInputError('record', '(a value nested too deeply to write)', 'nested at most a few thousand levels deep', location, 'PARL_ERR_LIMIT');
    }
    throw err;
  }
}
