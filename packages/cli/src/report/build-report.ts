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

function table(caption: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<td>${escapeHtml(c)}</td>` : `<td class="num">${escapeHtml(c)}</td>`)).join('')}</tr>`)
    .join('\n');
  return `<section class="card"><h2>${escapeHtml(caption)}</h2><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
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
  const finalTable = table('Evaluation on held-out tasks', ['metric', 'trained policy', 'serial baseline'], [
    ['r_perf', n(s.final.r_perf), n(s.baseline_serial.r_perf)],
    ['critical steps', n(s.final.critical_steps), n(s.baseline_serial.critical_steps)],
    ['mean width', n(s.final.mean_width), '—'],
    ['finish rate', n(s.final.finish_rate), '—'],
    ['success rate', n(s.final.success_rate), '—'],
  ]);
  const latencyTable = table(
    'Latency to target (critical-step budget)',
    ['r_perf target', 'trained policy', 'serial baseline'],
    s.latency_to_target.map((r) => [n(r.target), r.policy === null ? 'never' : n(r.policy), r.serial === null ? 'never' : n(r.serial)]),
  );
  return `<div class="tables">\n${runTable}\n${finalTable}\n${latencyTable}\n</div>`;
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
  return renderChartPage({
    title: `PARL training report — ${s.preset}, seed ${formatNumber(s.seed)}`,
    lead: `${formatNumber(s.steps)} training steps. Final metrics are measured on held-out tasks with the trained policy acting greedily; the baseline is the always-serial scripted policy on the same tasks.`,
    blocks: [
      summaryTables(run),
      `<details class="card" style="margin-bottom:18px"><summary>Configuration (config.json)</summary><pre>${escapeHtml(JSON.stringify(run.config, null, 2))}</pre></details>`,
    ],
    charts: runCharts(run),
  });
}
