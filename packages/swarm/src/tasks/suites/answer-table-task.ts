/**
 * A suite task scored through the scorer registry: its answer is a table of
 * `entity | attribute | value` rows, scored by `table` (item-level F1, WideSearch's way).
 *
 * @module
 */
import type { AnswerTable } from '../../scoring/accepted-answer.js';
import { tableScorer } from '../../scoring/table-scorer.js';
import type { SwarmTask, TaskTool } from '../task.js';

/** The columns of a suite's answer lines. */
export const ITEM_COLUMNS = ['entity', 'attribute', 'value'] as const;

const TABLE = tableScorer(undefined);

/** A task whose answer is `rows` of `entity | attribute | value`, matched on `unique`. */
export function answerTableTask(
  fields: { readonly id: string; readonly kind: 'wide' | 'deep'; readonly prompt: string; readonly tools: readonly TaskTool[] },
  rows: readonly (readonly [string, string, string])[],
  unique: readonly string[],
): SwarmTask {
  const answer: AnswerTable = { columns: ITEM_COLUMNS, unique_columns: unique, rows };
  const task: SwarmTask = { ...fields, answer, scorer: 'table', score: (text) => TABLE.score(text, task) };
  return task;
}
