/**
 * The per-task table of `parl swarm eval --report`: each task's scorer and r_perf for the swarm
 * and the single agent beside the final answer each was scored on, and for a table answer (the `table` scorer) the swarm's item and row F1
 * and whether its table was perfect; a scorer's error (a judge that never answered in shape) is
 * shown on its row, and so is an episode that failed (not graded, spec §10.2).
 *
 * @module
 */
import { escapeHtml } from './html-page.js';
import { formatNumber } from './format-number.js';

/** What the table reads of a record. */
interface ScoredRecord {
  readonly task_id: string;
  readonly r_perf?: number | null;
  readonly score?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

function num(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? formatNumber(value, 4) : '—';
}

/** A final answer as a cell: its first 300 characters, line breaks kept; an em dash when there was none. */
function answerCell(answer: string | undefined): string {
  if (answer === undefined || answer.trim() === '') return '<td class="answer">—</td>';
  const text = answer.length > 300 ? `${answer.slice(0, 300)}…` : answer;
  return `<td class="answer"><pre>${escapeHtml(text)}</pre></td>`;
}

/** One task's row: its id and its swarm and single-agent episodes' indexes in their lists (absent: the episode failed and was not graded). */
interface TaskPair {
  readonly task_id: string;
  readonly swarm?: number;
  readonly single?: number;
}

/**
 * The episodes of both modes paired by task id, in `taskIds`' order (the evaluation's tasks, a task
 * whose episodes both failed included), or without it in the order the records first name them.
 * A task's episode is missing from its mode's list where it failed (spec §10.2: not graded).
 */
function pairByTask(swarm: readonly ScoredRecord[], single: readonly ScoredRecord[], taskIds?: readonly string[]): TaskPair[] {
  const index = (records: readonly ScoredRecord[]): Map<string, number> => new Map(records.map((r, i) => [r.task_id, i]));
  const inSwarm = index(swarm);
  const inSingle = index(single);
  const ids = taskIds ?? [...new Set([...swarm, ...single].map((r) => r.task_id))];
  return ids.map((task_id) => {
    const s = inSwarm.get(task_id);
    const t = inSingle.get(task_id);
    return { task_id, ...(s === undefined ? {} : { swarm: s }), ...(t === undefined ? {} : { single: t }) };
  });
}

/**
 * The table's HTML (`<table id="tasks">`), one row per task in the evaluation's order, each task's
 * swarm and single-agent episodes side by side (matched by task: an episode that failed is not
 * graded, and its cells say so instead of showing a score).
 *
 * @param swarm - the swarm's records
 * @param single - the single agent's records
 * @param answers - each episode's final answer, in its records' order (what each score was given)
 * @param taskIds - the evaluation's tasks in order (`task_ids`); without it, the order the records name them
 */
export function taskScoresTable(
  swarm: readonly ScoredRecord[],
  single: readonly ScoredRecord[],
  answers?: { readonly swarm: readonly string[]; readonly single_agent: readonly string[] },
  taskIds?: readonly string[],
): string {
  const rows = pairByTask(swarm, single, taskIds).map((pair) => {
    const record = pair.swarm === undefined ? undefined : swarm[pair.swarm];
    const other = pair.single === undefined ? undefined : single[pair.single];
    const score = record?.score ?? {};
    const scorer = record?.score?.['scorer'] ?? other?.score?.['scorer'];
    const success = score['success'];
    const notes = [
      record === undefined ? 'swarm episode failed: not graded' : undefined,
      other === undefined ? 'single-agent episode failed: not graded' : undefined,
      score['error'],
      score['reason'],
      score['unscored'] === undefined ? undefined : `no answer (${String(score['unscored'])})`,
    ].filter((n): n is string => typeof n === 'string');
    const cells = [
      `<th>${escapeHtml(pair.task_id)}</th>`,
      `<td>${escapeHtml(typeof scorer === 'string' ? scorer : '—')}</td>`,
      `<td class="num">${num(record?.r_perf)}</td>`,
      record === undefined ? answerCell(undefined) : answerCell(answers?.swarm[pair.swarm as number]),
      `<td class="num">${num(other?.r_perf)}</td>`,
      other === undefined ? answerCell(undefined) : answerCell(answers?.single_agent[pair.single as number]),
      `<td class="num">${num(score['item_f1'])}</td>`,
      `<td class="num">${num(score['row_f1'])}</td>`,
      `<td>${typeof success === 'boolean' ? (success ? 'yes' : 'no') : '—'}</td>`,
      `<td>${escapeHtml(notes.join('; '))}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  return (
    '<h2>Per task</h2><table id="tasks"><thead><tr><th>task</th><th>scorer</th><th>r_perf (swarm)</th><th>final answer (swarm)</th><th>r_perf (single agent)</th><th>final answer (single agent)</th>' +
    '<th>item F1 (swarm)</th><th>row F1 (swarm)</th><th>perfect table</th><th>note</th></tr></thead><tbody>' +
    rows.join('') +
    '</tbody></table>'
  );
}
