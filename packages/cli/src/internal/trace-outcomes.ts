/**
 * Outcomes joined onto records by `id`: a trace says how an episode ran, not whether its task
 * succeeded, so `parl trace --outcomes FILE` adds each episode's `success` / `quality` / `r_perf`
 * (and any other spec §5 field) from an evaluation file.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { isUnreadable, openInput, readRecords } from '@parl/io';

/** Fields an outcome may not set: they come from the trace. */
const TRACE_FIELDS: readonly string[] = ['id', 'stages'];

/** Outcomes by record id, and which ids were used. */
export interface OutcomeTable {
  /** The outcome fields (without `id`) of each id. */
  readonly byId: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The file they came from, for messages. */
  readonly path: string;
}

/**
 * Read an outcomes file: JSON or JSONL objects (detected as for records), each with an `id`
 * (string or number) and the fields to add to the record of that id. The table is held in memory
 * (one small object per episode).
 *
 * @param path - the `--outcomes` file
 * @throws `ParlInputError` (from `@parl/core`) naming the file and line of an unreadable line, an
 *   outcome without an id, a repeated id, or a field the trace provides (`id`, `stages`);
 *   `CliError` when the file cannot be read
 *
 * @example
 * ```ts
 * const outcomes = await readOutcomes('evals.jsonl'); // {"id":"trace_1","success":true}
 * ```
 */
export async function readOutcomes(path: string, stdin: NodeJS.ReadableStream): Promise<OutcomeTable> {
  const byId = new Map<string, Readonly<Record<string, unknown>>>();
  const input = await openInput(path, stdin, '--outcomes');
  for await (const item of readRecords(input)) {
    const where = `--outcomes ${path} ${item.location}`;
    if (isUnreadable(item)) throw item.error.at(where);
    const value = item.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ParlInputError('outcome', value, 'an object with an id and the fields to add (success, quality, r_perf, …)', where);
    }
    const outcome = value as Record<string, unknown>;
    const id = outcome['id'];
    if (typeof id !== 'string' && typeof id !== 'number') {
      throw new ParlInputError('id', id, 'the id of a trace (a string or number)', where);
    }
    const key = String(id);
    if (byId.has(key)) throw new ParlInputError('id', id, 'an id given once (it is repeated)', where);
    const entries = Object.entries(outcome).filter(([name]) => name !== 'id');
    for (const [name, field] of entries) {
      if (TRACE_FIELDS.includes(name)) throw new ParlInputError(name, field, 'absent: the trace provides it', where);
    }
    // fromEntries defines own properties, so a JSON "__proto__" key stays a plain field
    byId.set(key, Object.fromEntries(entries));
  }
  return { byId, path };
}
