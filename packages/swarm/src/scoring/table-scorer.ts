/**
 * `table` (spec §10.2), WideSearch's way: the answer's table is read (Markdown, or `a | b | c`
 * lines), its rows are matched to the accepted rows on the unique columns (normalised), and each
 * other cell is compared by its column's metric. Items are the cells of the columns that are not
 * unique (the unique columns' cells when every column is unique); a row is right when all its
 * items are. Precision, recall and F1 over items and over rows go into `score`; r_perf is the
 * item F1; `success` is true only for a perfect table.
 *
 * @module
 */
import { isAnswerTable, type AnswerTable } from './accepted-answer.js';
import { cellMatch, type CellMatch, type JudgeTally } from './cell-metrics.js';
import type { JudgeClient } from './judge-client.js';
import { normaliseAnswer } from './normalise.js';
import type { Score, Scorer } from './score.js';
import { tableRowsIn } from './table-text.js';

/** Precision, recall and F1 of `correct` out of `predicted` against `gold`. */
export interface PrecisionRecall {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

function prf(correct: number, predicted: number, gold: number): PrecisionRecall {
  const precision = predicted === 0 ? 0 : correct / predicted;
  const recall = gold === 0 ? 0 : correct / gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function keyOf(row: Readonly<Record<string, string>>, unique: readonly string[]): string {
  return unique.map((c) => normaliseAnswer(row[c] ?? '')).join('\u0000');
}

/**
 * Score a response against an answer table.
 *
 * @param taskId - the task, named when a `judge` column's judge cannot be reached
 * @param signal - the episode's: aborts a `judge` column's requests when it is cancelled
 * @throws `SwarmScoreError` when a `judge` column's judge failed after its retries
 */
export async function scoreTable(answer: string, table: AnswerTable, judge: JudgeClient | undefined, taskId = 'task', signal?: AbortSignal): Promise<Omit<Score, 'scorer'> & { readonly r_perf: number }> {
  const { columns, unique_columns: unique } = table;
  const items = columns.filter((c) => !unique.includes(c));
  const itemColumns = items.length === 0 ? unique : items;
  const tally: JudgeTally = { calls: 0, input_tokens: 0, output_tokens: 0, ungraded: 0 };
  const matchers = new Map<string, CellMatch>(itemColumns.map((c) => [c, cellMatch(table.metrics?.[c] ?? 'exact', judge, { tally, taskId, signal })]));
  const gold = new Map<string, Record<string, string>>();
  for (const cells of table.rows) {
    const row = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
    gold.set(keyOf(row, unique), row);
  }
  const { rows: read, skipped } = tableRowsIn(answer, columns);
  // A key given twice counts once, its first row (as WideSearch drops duplicate rows).
  const predicted = new Map<string, Record<string, string>>();
  for (const row of read) {
    const key = keyOf(row, unique);
    if (!predicted.has(key)) predicted.set(key, row);
  }
  let rightItems = 0;
  let rightRows = 0;
  let matchedRows = 0;
  await Promise.all(
    [...predicted].map(async ([key, row]) => {
      const want = gold.get(key);
      if (want === undefined) return;
      matchedRows++;
      // With every column unique, a matched row's cells are its items, and all of them are right.
      const right = items.length === 0 ? unique.map(() => true) : await Promise.all(items.map((c) => (matchers.get(c) as CellMatch)(row[c] ?? '', want[c] ?? '', c)));
      const n = right.filter(Boolean).length;
      rightItems += n;
      if (n === right.length) rightRows++;
    }),
  );
  const perRow = itemColumns.length;
  const item = prf(rightItems, predicted.size * perRow, gold.size * perRow);
  const row = prf(rightRows, predicted.size, gold.size);
  const success = rightRows === gold.size && predicted.size === gold.size;
  return {
    r_perf: item.f1,
    success,
    item_precision: item.precision,
    item_recall: item.recall,
    item_f1: item.f1,
    row_precision: row.precision,
    row_recall: row.recall,
    row_f1: row.f1,
    rows_predicted: predicted.size,
    rows_matched: matchedRows,
    rows_gold: gold.size,
    ...(skipped === 0 ? {} : { lines_skipped: skipped }),
    // The judge's calls for `judge` columns (cells equal once normalised need none).
    ...(tally.calls === 0 ? {} : { judge: { ...tally } }),
  };
}

/** The `table` scorer (a `judge` column uses `judge`). */
export function tableScorer(judge: JudgeClient | undefined): Scorer {
  return {
    name: 'table',
    async score(answer, task, signal): Promise<Score> {
      if (!isAnswerTable(task.answer)) return { scorer: 'table', r_perf: 0, error: `task ${task.id} has no answer table` };
      return { scorer: 'table', ...(await scoreTable(answer, task.answer, judge, task.id, signal)) };
    },
  };
}
