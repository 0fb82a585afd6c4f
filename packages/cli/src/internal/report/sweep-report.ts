/**
 * The comparison report of a sweep (`report.html`, self-contained): per grid point the speed-up
 * over serial against final r_perf with the spread over seeds, finish rate, width and a verdict
 * (collapsed / spurious / parallel), so the setting that works is visible at a glance. The
 * numbers come from `@parl/core`'s sweep statistics; this file only lays them out.
 *
 * @module
 */
import { RUN_VERDICTS, runVerdict, type RunVerdict, type Spread, type SweepPointSummary } from '@parl/core';
import type { SweepPointRow } from '@parl/sim';
import { csvCell } from '@parl/io';
import { formatNumber } from './format-number.js';
import { escapeHtml, renderChartPage, type PageChart } from './html-page.js';

/** What the report needs of a sweep: its parameters and points. */
export interface SweepReportInput {
  /** The swept paths, in column order. */
  readonly parameters: readonly string[];
  /** Each point's values by path. */
  readonly points: readonly Readonly<Record<string, unknown>>[];
  /** Runs planned in all (finished or not). */
  readonly plannedRuns: number;
  /** The grid file's preset and steps, for the lead paragraph. */
  readonly preset: string;
  /** Training steps of every run, when the grid file set them. */
  readonly steps?: number;
}

/** Colours of the verdicts. */
export const VERDICT_COLOURS: Readonly<Record<RunVerdict, string>> = { collapsed: '#c0392b', spurious: '#d68910', parallel: '#1e8449' };

const n3 = (x: number): string => formatNumber(x, 3);
const spread = (s: Spread, unit = ''): string => (s.min === s.max ? `${n3(s.mean)}${unit}` : `${n3(s.mean)}${unit} (${n3(s.min)}–${n3(s.max)})`);
const paramsText = (parameters: readonly string[], params: Readonly<Record<string, unknown>>): string =>
  parameters.length === 0 ? 'the only point' : parameters.map((p) => `${p}=${csvCell(params[p])}`).join(', ');

function verdictCell(s: SweepPointSummary): string {
  const counts = RUN_VERDICTS.filter((v) => s.verdicts[v] > 0)
    .map((v) => `${v} ${s.verdicts[v]}/${s.runs}`)
    .join(', ');
  return `<td class="verdict" data-verdict="${s.verdict}"><strong style="color:${VERDICT_COLOURS[s.verdict]}">${s.verdict}</strong><br><small>${escapeHtml(counts)}</small></td>`;
}

function pointsTable(input: SweepReportInput, rows: readonly SweepPointRow[]): string {
  const head = ['#', ...input.parameters, 'seeds', 'verdict', 'speed-up over serial', 'final r_perf (± sd)', 'serial r_perf', 'finish rate', 'mean width'];
  const body = rows
    .map((row) => {
      const s = row.summary;
      const cells = [
        `<td>${row.point + 1}</td>`,
        ...input.parameters.map((p) => `<td><code>${escapeHtml(csvCell(row.params[p]))}</code></td>`),
        `<td class="num">${s.runs}</td>`,
        verdictCell(s),
        `<td class="num">${escapeHtml(spread(s.speedup, '×'))}</td>`,
        `<td class="num">${escapeHtml(`${spread(s.r_perf)} ± ${n3(s.r_perf.sd)}`)}</td>`,
        `<td class="num">${escapeHtml(spread(s.serial_r_perf))}</td>`,
        `<td class="num">${escapeHtml(s.finish_rate === null ? '—' : spread(s.finish_rate))}</td>`,
        `<td class="num">${escapeHtml(spread(s.mean_width))}</td>`,
      ];
      return `<tr data-point="${row.point}">${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<section class="card" style="margin-bottom:18px;overflow-x:auto"><h2>Grid points</h2><p class="caption">Mean over seeds, with the range (min–max) in brackets. Verdict per run: collapsed when the trained policy's mean width ≤ 1.5, spurious when its sub-agents' finish rate &lt; 0.5, else parallel; a point's verdict is that of most of its seeds.</p><table id="sweep-points"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
}

function headline(input: SweepReportInput, rows: readonly SweepPointRow[], best: SweepPointRow | undefined): string {
  const counts = RUN_VERDICTS.map((v) => `${rows.filter((r) => r.summary.verdict === v).length} ${v}`).join(', ');
  const answer =
    best === undefined
      ? 'No point made PARL work: no grid point is parallel on most of its seeds.'
      : `Best parallel point: ${paramsText(input.parameters, best.params)} — speed-up ${spread(best.summary.speedup, '×')}, r_perf ${spread(best.summary.r_perf)} against serial's ${n3(best.summary.serial_r_perf.mean)}, finish rate ${best.summary.finish_rate === null ? '— (no sub-agents)' : n3(best.summary.finish_rate.mean)}, parallel on ${best.summary.verdicts.parallel}/${best.summary.runs} seeds.`;
  return `<section class="card" id="sweep-verdict" style="margin-bottom:18px"><h2>Verdict</h2><p>${escapeHtml(`Points: ${counts}.`)}</p><p><strong>${escapeHtml(answer)}</strong></p></section>`;
}

function scatter(input: SweepReportInput, rows: readonly SweepPointRow[]): PageChart {
  const datasets: Record<string, unknown>[] = [];
  for (const v of RUN_VERDICTS) {
    const mine = rows.filter((r) => r.summary.verdict === v);
    const runs = rows.flatMap((r) => r.runs.filter((run) => runVerdict(run) === v));
    if (runs.length > 0) {
      datasets.push({
        label: `${v}: runs`,
        data: runs.map((run) => ({ x: run.speedup, y: run.final_r_perf })),
        backgroundColor: `${VERDICT_COLOURS[v]}66`,
        borderColor: `${VERDICT_COLOURS[v]}66`,
        pointRadius: 3,
      });
    }
    if (mine.length === 0) continue;
    datasets.push({
      label: `${v}: point means`,
      data: mine.map((r) => ({ x: r.summary.speedup.mean, y: r.summary.r_perf.mean, point: r.point + 1, params: paramsText(input.parameters, r.params) })),
      backgroundColor: VERDICT_COLOURS[v],
      borderColor: '#1d2330',
      pointRadius: 7,
      pointStyle: 'rectRot',
    });
  }
  return {
    title: 'Speed-up over serial against final r_perf',
    caption: 'Each small dot is one run (one seed), coloured by its own verdict; each diamond the mean of a grid point, coloured by the point\'s verdict. Up and to the right is better: faster than always-serial and at least as accurate.',
    config: {
      type: 'scatter',
      data: { datasets },
      options: {
        scales: {
          x: { title: { display: true, text: 'speed-up over serial (×)' } },
          y: { title: { display: true, text: 'final r_perf' } },
        },
      },
    },
  };
}

/**
 * The report HTML of a sweep from its finished runs.
 *
 * @example
 * ```ts
 * const rows = sweepPointRows(outcome.rows); // @parl/sim
 * const html = buildSweepReport({ parameters, points, plannedRuns: 20, preset: 'parl' }, rows, bestPoint(rows));
 * ```
 */
export function buildSweepReport(input: SweepReportInput, rows: readonly SweepPointRow[], best: SweepPointRow | undefined): string {
  const finished = rows.reduce((n, row) => n + row.runs.length, 0);
  const lead = `${finished} of ${input.plannedRuns} runs finished over ${input.points.length} grid point${input.points.length === 1 ? '' : 's'}, from the ${input.preset} preset${input.steps === undefined ? '' : ` with ${input.steps} training steps`}. Final metrics are measured on held-out tasks with each trained policy acting greedily; serial is the always-serial policy on the same tasks.`;
  return renderChartPage({
    title: `PARL sweep report — ${input.parameters.length === 0 ? 'seeds' : input.parameters.join(' × ')}`,
    lead,
    blocks: [headline(input, rows, best), pointsTable(input, rows)],
    charts: [scatter(input, rows)],
  });
}
