/**
 * One row of a task file (spec §10.1) and its check: `id` (a non-empty string), `prompt` (a
 * non-empty string), `answer` (a string, a list of strings, or a table), `scorer` (optional, a
 * scorer name of §10.2) and `metadata` (optional, an object). In CSV every cell is text: `answer`
 * and `metadata` are read as JSON when they are a list, a table or an object, and an empty
 * `scorer` or `metadata` cell is absent. Parquet and Arrow columns may hold lists and structs, or
 * the same JSON texts.
 *
 * @module
 */
import { ParlInputError, suggestField } from '@parl/core';
import type { RowFormat } from '@parl/io';
import { isAnswerTable, type AcceptedAnswer, type AnswerTable } from '../scoring/accepted-answer.js';
import { checkMetric } from '../scoring/cell-metrics.js';
import { SCORERS } from '../scoring/scorer-registry.js';
import { parseScorerSpec } from '../scoring/scorer-spec.js';

/** A task row, checked. */
export interface TaskRow {
  /** The task id, unique in the file. */
  readonly id: string;
  /** The user message to the orchestrator. */
  readonly prompt: string;
  /** What the scorer compares with. */
  readonly answer?: AcceptedAnswer | undefined;
  /** This row's scorer, overriding the run's. */
  readonly scorer?: string | undefined;
  /** Copied into the record unchanged. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/** The fields a row may have. */
export const TASK_ROW_FIELDS = ['id', 'prompt', 'answer', 'scorer', 'metadata'] as const;

const TABLE_SHAPE = 'a string, a list of strings, or a table {"columns": [...], "unique_columns": [...], "rows": [[...], ...], "metrics"?: {...}}';

/** A cell's text as JSON when it holds a list or an object (CSV, and text columns of Parquet and Arrow). */
function jsonText(value: unknown, format: RowFormat): unknown {
  if (format === 'json' || format === 'jsonl' || typeof value !== 'string') return value;
  const t = value.trim();
  if (!(t.startsWith('[') || t.startsWith('{'))) return value;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return value;
  }
}

function nonEmptyText(value: unknown, field: string, location: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ParlInputError(field, value, 'a non-empty string', location);
  return value;
}

function stringList(value: unknown, field: string, location: string, expected: string): string[] {
  if (!Array.isArray(value)) throw new ParlInputError(field, value, expected, location);
  return value.map((v, i) => {
    if (typeof v !== 'string') throw new ParlInputError(`${field}[${i}]`, v, 'a string', location);
    return v;
  });
}

/** A cell of an answer table as text: strings as they are, numbers as written. */
function cellText(value: unknown, field: string, location: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new ParlInputError(field, value, 'a string or a number', location);
}

function checkTable(value: Record<string, unknown>, location: string): AnswerTable {
  for (const key of Object.keys(value)) {
    if (!['columns', 'unique_columns', 'rows', 'metrics'].includes(key)) throw new ParlInputError(`answer.${key}`, value[key], 'absent: a table has columns, unique_columns, rows and metrics', location);
  }
  const columns = stringList(value['columns'], 'answer.columns', location, 'a non-empty list of column names');
  if (columns.length === 0) throw new ParlInputError('answer.columns', value['columns'], 'a non-empty list of column names', location);
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined) throw new ParlInputError('answer.columns', value['columns'], `column names that differ (${JSON.stringify(dup)} is given twice)`, location);
  const unique = stringList(value['unique_columns'], 'answer.unique_columns', location, 'a non-empty list of the columns rows are matched on');
  if (unique.length === 0) throw new ParlInputError('answer.unique_columns', value['unique_columns'], 'a non-empty list of the columns rows are matched on', location);
  unique.forEach((c, i) => {
    if (!columns.includes(c)) throw new ParlInputError(`answer.unique_columns[${i}]`, c, `one of the columns (${columns.join(', ')})`, location);
  });
  const rawRows = value['rows'];
  if (!Array.isArray(rawRows) || rawRows.length === 0) throw new ParlInputError('answer.rows', rawRows, 'a non-empty list of rows, each a list of cells', location);
  const rows = rawRows.map((row, r) => {
    if (!Array.isArray(row) || row.length !== columns.length) throw new ParlInputError(`answer.rows[${r}]`, row, `a list of ${columns.length} cells (one per column)`, location);
    return row.map((cell, c) => cellText(cell, `answer.rows[${r}][${c}]`, location));
  });
  const metricsValue = value['metrics'];
  let metrics: Record<string, string> | undefined;
  if (metricsValue !== undefined && metricsValue !== null) {
    if (typeof metricsValue !== 'object' || Array.isArray(metricsValue)) throw new ParlInputError('answer.metrics', metricsValue, 'an object: column → metric', location);
    metrics = {};
    for (const [column, metric] of Object.entries(metricsValue)) {
      if (!columns.includes(column)) throw new ParlInputError(`answer.metrics.${column}`, metric, `a metric of one of the columns (${columns.join(', ')})`, location);
      metrics[column] = checkMetric(metric, `answer.metrics.${column}`, location);
    }
  }
  return { columns, unique_columns: unique, rows, ...(metrics === undefined ? {} : { metrics }) };
}

function checkAnswer(raw: unknown, location: string): AcceptedAnswer | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) {
    if (raw.length === 0) throw new ParlInputError('answer', raw, `${TABLE_SHAPE}; a list needs at least one string`, location);
    return stringList(raw, 'answer', location, TABLE_SHAPE);
  }
  if (typeof raw === 'object') return checkTable(raw as Record<string, unknown>, location);
  throw new ParlInputError('answer', raw, TABLE_SHAPE, location);
}

/**
 * Check one row.
 *
 * @param value - the row as read
 * @param location - where it came from (`--tasks-file t.jsonl line 3`)
 * @param format - the file's format (CSV and columnar cells may hold JSON texts)
 * @param runScorer - the run's `--scorer`, when given (the row's answer must suit the scorer it gets)
 * @throws {@link @parl/core!ParlInputError} naming the field and what was expected, located at the row
 */
export function checkTaskRow(value: unknown, location: string, format: RowFormat, runScorer: string | undefined): TaskRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParlInputError('row', value, `an object with ${TASK_ROW_FIELDS.join(', ')}`, location);
  const row = value as Record<string, unknown>;
  for (const key of Object.keys(row)) {
    if (!(TASK_ROW_FIELDS as readonly string[]).includes(key)) {
      const hint = suggestField(key, TASK_ROW_FIELDS);
      throw new ParlInputError(key, row[key], `absent: a task row's fields are ${TASK_ROW_FIELDS.join(', ')}${hint === undefined ? '' : ` (did you mean ${hint}?)`}`, location);
    }
  }
  const id = nonEmptyText(typeof row['id'] === 'number' ? String(row['id']) : row['id'], 'id', location);
  const prompt = nonEmptyText(row['prompt'], 'prompt', location);
  const blank = (v: unknown): boolean => v === undefined || v === null || (format !== 'json' && format !== 'jsonl' && v === '');
  const answer = blank(row['answer']) ? undefined : checkAnswer(jsonText(row['answer'], format), location);
  let scorer: string | undefined;
  if (!blank(row['scorer'])) {
    if (typeof row['scorer'] !== 'string') throw new ParlInputError('scorer', row['scorer'], 'a scorer name', location);
    scorer = parseScorerSpec(row['scorer'], 'scorer', location).name;
  }
  let metadata: Record<string, unknown> | undefined;
  const rawMetadata = jsonText(row['metadata'], format);
  if (!blank(rawMetadata)) {
    if (typeof rawMetadata !== 'object' || rawMetadata === null || Array.isArray(rawMetadata)) throw new ParlInputError('metadata', row['metadata'], 'an object (JSON text in CSV)', location);
    metadata = rawMetadata as Record<string, unknown>;
  }
  const effective = scorer ?? runScorer ?? defaultScorer(answer);
  const need = SCORERS[parseScorerSpec(effective, scorer === undefined ? '--scorer' : 'scorer', location).kind].needs;
  const field = 'answer';
  if (need === 'table' && !isAnswerTable(answer)) throw new ParlInputError(field, row['answer'], `a table {"columns", "unique_columns", "rows"} for the scorer ${effective}`, location);
  if (need === 'text' && (answer === undefined || isAnswerTable(answer))) throw new ParlInputError(field, row['answer'], `a string or a list of strings for the scorer ${effective}`, location);
  if (need === 'any' && answer === undefined) throw new ParlInputError(field, row['answer'], `an answer for the scorer ${effective}`, location);
  return { id, prompt, ...(answer === undefined ? {} : { answer }), ...(scorer === undefined ? {} : { scorer }), ...(metadata === undefined ? {} : { metadata }) };
}

/** The scorer of a row that names none, in a run without `--scorer`: `table` for a table, else `exact`. */
export function defaultScorer(answer: AcceptedAnswer | undefined): string {
  return isAnswerTable(answer) ? 'table' : 'exact';
}
