/**
 * The per-task table of `parl swarm eval --report`: each task's scorer and r_perf for the swarm
 * and the single agent beside the final answer each was scored on, and for a table answer (the `table` scorer) the swarm's item and row F1
 * and whether its table was perfect; a scorer's error (a judge that never answered in shape) is
 * shown on its row.
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

/**
 * The table's HTML (`<table id="tasks">`), one row per task in the evaluation's order.
 *
 * @param swarm - the swarm's records
 * @param single - the single agent's records, same order
 * @param answers - each episode's final answer, same order (what each score was given)
 */
export function taskScoresTable(swarm: readonly ScoredRecord[], single: readonly ScoredRecord[], answers?: { readonly swarm: readonly string[]; readonly single_agent: readonly string[] }): string {
  const rows = swarm.map((record, i) => {
    const score = record.score ?? {};
    const other = single[i];
    const success = score['success'];
    const notes = [score['error'], score['reason'], score['unscored'] === undefined ? undefined : `no answer (${String(score['unscored'])})`].filter((n): n is string => typeof n === 'string');
    const cells = [
      `<th>${escapeHtml(record.task_id)}</th>`,
      `<td>${escapeHtml(typeof score['scorer'] === 'string' ? score['scorer'] : '—')}</td>`,
      `<td class="num">${num(record.r_perf)}</td>`,
      answerCell(answers?.swarm[i]),
      `<td class="num">${num(other?.r_perf)}</td>`,
      answerCell(answers?.single_agent[i]),
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
