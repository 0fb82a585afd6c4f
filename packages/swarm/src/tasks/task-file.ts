/**
 * `--tasks-file FILE` (spec §10.1): the rows of a JSONL, JSON array, CSV, Parquet or Arrow file
 * (read by `@parl/io`'s `readRows`), every one checked before any episode starts. A bad row is
 * one line naming the file, the line or row, the field and what was expected; an id given twice
 * is an error naming both places.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { readRows } from '@parl/io';
import { checkTaskRow, type TaskRow } from './task-row.js';

/** The flag task files are given with. */
export const TASKS_FILE_FLAG = '--tasks-file';

/**
 * Read and check every row of the task file at `path`.
 *
 * @param runScorer - the run's `--scorer`, when given
 * @throws {@link @parl/core!ParlInputError} for the first bad row, a duplicate id or a file without rows;
 *   `ParlIoError` (`@parl/io`) when the file cannot be read
 */
export async function readTaskFile(path: string, runScorer?: string): Promise<TaskRow[]> {
  const rows: TaskRow[] = [];
  const seen = new Map<string, string>();
  for await (const { value, location, format } of readRows(path, TASKS_FILE_FLAG)) {
    const where = `${TASKS_FILE_FLAG} ${path} ${location}`;
    const row = checkTaskRow(value, where, format, runScorer);
    const first = seen.get(row.id);
    if (first !== undefined) throw new ParlInputError('id', row.id, `unique in the file (${first} has it too)`, where);
    seen.set(row.id, location);
    rows.push(row);
  }
  if (rows.length === 0) throw new ParlInputError(TASKS_FILE_FLAG, path, 'a file with at least one task row');
  return rows;
}
