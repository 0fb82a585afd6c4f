/**
 * What a task's answer may be (spec §10.1): a string, a list of accepted strings, or a table
 * (WideSearch's shape: columns, the unique columns rows are matched on, the rows, and each
 * column's metric).
 *
 * @module
 */

/** How a table column's cells are compared (spec §10.1): `exact`, `number:TOL`, `date:DAYS`, `judge`. */
export type ColumnMetric = string;

/** An answer table. */
export interface AnswerTable {
  /** Column names, in order. */
  readonly columns: readonly string[];
  /** The columns a row is matched on (a non-empty subset of `columns`). */
  readonly unique_columns: readonly string[];
  /** The rows, one cell per column, as text (numbers are written as text). */
  readonly rows: readonly (readonly string[])[];
  /** Column → metric; a column not named is compared `exact`. */
  readonly metrics?: Readonly<Record<string, ColumnMetric>> | undefined;
}

/** A task's accepted answer. */
export type AcceptedAnswer = string | readonly string[] | AnswerTable;

/** True for a table answer. */
export function isAnswerTable(answer: AcceptedAnswer | undefined): answer is AnswerTable {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer);
}

/** The accepted strings of a string or list answer (a table's has none). */
export function acceptedTexts(answer: AcceptedAnswer | undefined): readonly string[] {
  if (answer === undefined || isAnswerTable(answer)) return [];
  return typeof answer === 'string' ? [answer] : (answer as readonly string[]);
}

/** A table as Markdown (for the judge, which reads text). */
export function tableMarkdown(table: AnswerTable): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(table.columns), line(table.columns.map(() => '---')), ...table.rows.map(line)].join('\n');
}
