/**
 * How `parl schedule` shows a sampled schedule: an aligned table, CSV, JSON, an ASCII chart
 * (`asciichart`) and a self-contained HTML chart (Chart.js).
 *
 * @module
 */
import * as asciichart from 'asciichart';
import { csvRow } from '@parl/io';
import { formatNumber } from '../report/format-number.js';
import { escapeHtml, renderChartPage } from '../report/html-page.js';
import type { ScheduleSamples } from './schedule-samples.js';

/** A value with 6 significant digits, without trailing zeros (`0.05`, `0.0001`, `1.23457e-7`). */
function formatValue(value: number): string {
  return formatNumber(value);
}

/** The samples as an aligned two-column text table with the schedule's short form on top. */
export function renderTable(table: ScheduleSamples): string {
  const steps = table.samples.map((s) => formatValue(s.step));
  const values = table.samples.map((s) => formatValue(s.value));
  const stepWidth = Math.max(4, ...steps.map((s) => s.length));
  const lines = [`schedule ${table.schedule}`, `${'step'.padStart(stepWidth)}  value`];
  for (let i = 0; i < steps.length; i++) lines.push(`${(steps[i] as string).padStart(stepWidth)}  ${values[i] as string}`);
  return `${lines.join('\n')}\n`;
}

/** The samples as CSV with a `step,value` header, full precision. */
export function renderCsv(table: ScheduleSamples): string {
  return csvRow(['step', 'value']) + table.samples.map((s) => csvRow([s.step, s.value])).join('');
}

/** The samples as JSON: `{ schedule, spec, samples: [{ step, value }] }`. */
export function renderJson(table: ScheduleSamples): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

/**
 * An ASCII line chart of the schedule (value axis on the left, steps along the bottom).
 *
 * @param dense - the schedule sampled at one point per column (60 or so)
 */
export function renderAsciiChart(dense: ScheduleSamples, height = 10): string {
  const values = dense.samples.map((s) => s.value);
  const labels = values.map(formatValue);
  const labelWidth = Math.max(...labels.map((l) => l.length), 6);
  const plot = asciichart.plot(values, {
    height,
    format: (x: number) => formatValue(x).padStart(labelWidth),
  });
  const first = dense.samples[0]?.step ?? 0;
  const last = dense.samples[dense.samples.length - 1]?.step ?? 0;
  const left = `step ${formatValue(first)}`;
  const right = formatValue(last);
  const axisOffset = labelWidth + 2;
  const gap = Math.max(1, values.length - left.length - right.length);
  return `${plot}\n${' '.repeat(axisOffset)}${left}${' '.repeat(gap)}${right}\n`;
}

/** A self-contained HTML page with the schedule as a Chart.js line chart. */
export function renderScheduleHtml(dense: ScheduleSamples): string {
  return renderChartPage({
    title: `Schedule ${dense.schedule}`,
    lead: 'Value of the schedule at each training step (spec §4); it holds its last value after its last step.',
    blocks: [`<p class="caption">JSON form: <code>${escapeHtml(JSON.stringify(dense.spec))}</code></p>`],
    charts: [
      {
        title: dense.schedule,
        caption: `${dense.samples.length} samples from step ${formatValue(dense.samples[0]?.step ?? 0)} to ${formatValue(dense.samples[dense.samples.length - 1]?.step ?? 0)}.`,
        config: {
          type: 'line',
          data: {
            datasets: [
              {
                label: 'value',
                data: dense.samples.map((s) => ({ x: s.step, y: s.value })),
                borderColor: '#3b6fd8',
                backgroundColor: '#3b6fd8',
                pointRadius: 0,
                borderWidth: 2,
              },
            ],
          },
          options: {
            parsing: false,
            scales: { x: { type: 'linear', min: dense.samples[0]?.step ?? 0, max: dense.samples[dense.samples.length - 1]?.step ?? 0, title: { display: true, text: 'training step' } }, y: { title: { display: true, text: 'value' } } },
          },
        },
      },
    ],
  });
}
