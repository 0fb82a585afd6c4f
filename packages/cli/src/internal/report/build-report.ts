/**
 * The training report: one self-contained HTML file (Chart.js and the data inlined) built only
 * from a run folder's spec §6 files.
 *
 * @module
 */
import { formatNumber } from './format-number.js';
import { escapeHtml, renderChartPage } from './html-page.js';
import { runCharts } from './run-charts.js';
import type { RunData } from './run-folder.js';
import { trainingStory } from './training-story.js';
import { runVerdict } from './verdict.js';

/** Columns above which a table takes a whole row of the grid rather than a card beside another (it would overflow a narrow one). */
const WIDE_TABLE_COLUMNS = 4;

function table(caption: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<td>${escapeHtml(c)}</td>` : `<td class="num">${escapeHtml(c)}</td>`)).join('')}</tr>`)
    .join('\n');
  return `<section class="card${head.length > WIDE_TABLE_COLUMNS ? ' wide' : ''}"><h2>${escapeHtml(caption)}</h2><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
}

/** The summary tables (run, final vs serial, latency to target) as HTML. */
export function summaryTables(run: RunData): string {
  const s = run.summary;
  const n = (x: number | null): string => formatNumber(x, 4);
  const runTable = table('Run', ['', 'value'], [
    ['preset', s.preset],
    ['seed', n(s.seed)],
    ['training steps', n(s.steps)],
    ['metrics lines', n(run.metricsCount)],
  ]);
  const f = s.final;
  const launched = f.subagents === undefined ? f.mean_width > 0 : f.subagents > 0;
  const serialWork = s.baseline_serial.total_steps;
  const finalTable = table('Evaluation on held-out tasks', ['metric', 'trained policy', 'serial baseline'], [
    ['r_perf (share of subtasks solved correctly)', n(f.r_perf), n(s.baseline_serial.r_perf)],
    ['critical steps per episode', n(f.critical_steps), n(s.baseline_serial.critical_steps)],
    ['total steps (work) per episode', n(f.total_steps ?? null), n(serialWork ?? null)],
    ['sub-agents per episode', n(f.subagents ?? null), '0'],
    ['mean width (sub-agents per launch)', launched ? n(f.mean_width) : '—', '—'],
    ['finish rate (sub-agents that finished)', launched && f.finish_rate !== null ? n(f.finish_rate) : '—', '—'],
    ['success rate (episodes that returned every subtask)', n(f.success_rate), '—'],
    ...(f.assign_rate === undefined ? [] : [['assign rate (episodes that launched a sub-agent)', n(f.assign_rate), '0']]),
    ...(f.truncated_share === undefined ? [] : [['truncated (cut by the budget, steps or context)', n(f.truncated_share), '—']]),
  ]);
  const never = (x: number | null): string => (x === null ? 'never' : n(x));
  const latencyTable = table(
    'Latency to target (critical-step budget)',
    ['r_perf target', 'trained policy', ...(s.baselines ?? []).map((b) => b.policy), ...(s.baselines === undefined ? ['serial baseline'] : [])],
    s.latency_to_target.map((r, i) => [
      n(r.target),
      never(r.policy),
      ...(s.baselines === undefined ? [never(r.serial)] : s.baselines.map((b) => never(b.latency[i] ?? null))),
    ]),
  );
  const baselineTable =
    s.baselines === undefined
      ? ''
      : table(
          'Scripted baselines on the same held-out tasks',
          ['policy', 'r_perf', 'critical steps', 'total steps', 'sub-agents', 'mean width', 'finish rate', 'same episodes as trained'],
          s.baselines.map((b) => [
            b.policy,
            n(b.r_perf),
            n(b.critical_steps),
            n(b.total_steps),
            n(b.subagents),
            b.subagents > 0 ? n(b.mean_width) : '—',
            b.finish_rate === null ? '—' : n(b.finish_rate),
            b.same_as_trained ? 'yes — identical' : 'no',
          ]),
        );
  return `<div class="tables">\n${runTable}\n${finalTable}\n${latencyTable}\n${baselineTable}\n</div>`;
}

/**
 * The report HTML of a run.
 *
 * @example
 * ```ts
 * const html = buildRunReport(await readRunFolder('runs/parl-seed1'));
 * await writeFileAtomic('runs/parl-seed1/report.html', html);
 * ```
 */
export function buildRunReport(run: RunData): string {
  const s = run.summary;
  const env = run.config['env'];
  const directAction = typeof env !== 'object' || env === null || (env as Record<string, unknown>)['directAction'] !== false;
  const story = trainingStory(run.metrics, directAction);
  return renderChartPage({
    title: `PARL training report — ${s.preset}, seed ${formatNumber(s.seed)}`,
    lead: `${runVerdict(s)}${story === null ? '' : ` Over training, ${story}.`} ${formatNumber(s.steps)} training steps. Final metrics are measured on held-out tasks with the trained policy acting greedily; the baselines are the scripted policies on the same tasks.`,
    blocks: [
      summaryTables(run),
      `<details class="card" style="margin-bottom:18px"><summary>Configuration (config.json)</summary><pre>${escapeHtml(JSON.stringify(run.config, null, 2))}</pre></details>`,
    ],
    charts: runCharts(run),
  });
}
