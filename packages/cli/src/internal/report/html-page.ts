/**
 * A self-contained HTML page of Chart.js charts: the library and the data are inlined, nothing is
 * fetched, so the file opens offline.
 *
 * @module
 */
import { chartJsSource } from './chartjs-source.js';

/** A Chart.js configuration as plain JSON (no functions), given to `new Chart(canvas, config)`. */
export type ChartConfigJson = Readonly<Record<string, unknown>>;

/** One chart of a page. */
export interface PageChart {
  /** Heading above the chart. */
  readonly title: string;
  /** One sentence under the heading saying what to read in it. */
  readonly caption: string;
  /** The Chart.js configuration. */
  readonly config: ChartConfigJson;
}

/** A page: a title, optional lead paragraph and HTML blocks, then the charts. */
export interface ChartPage {
  /** `<title>` and `<h1>`. */
  readonly title: string;
  /** A short paragraph under the title (plain text). */
  readonly lead?: string;
  /** Trusted HTML blocks placed before the charts (e.g. the summary table), already escaped. */
  readonly blocks?: readonly string[];
  /** The charts, in order. */
  readonly charts: readonly PageChart[];
}

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a `<script>` element (no `</script>`, no HTML comment openers). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const STYLE = `
  :root { color-scheme: light; --fg: #1d2330; --muted: #5b6475; --line: #d9dee8; --bg: #f6f7fb; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
  main { max-width: 1180px; margin: 0 auto; padding: 28px 24px 48px; }
  h1 { font-size: 26px; margin: 0 0 4px; }
  h2 { font-size: 17px; margin: 0 0 2px; }
  p.lead { color: var(--muted); margin: 0 0 20px; }
  p.caption { color: var(--muted); font-size: 13px; margin: 0 0 10px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(520px, 100%), 1fr)); gap: 18px; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; min-width: 0; }
  .card.wide { grid-column: 1 / -1; }
  .chart-box { position: relative; height: 300px; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; font-variant-numeric: tabular-nums; }
  th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
  th { color: var(--muted); font-weight: 600; overflow-wrap: normal; hyphens: manual; }
  td.num { text-align: right; }
  .tables { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); gap: 18px; margin-bottom: 18px; }
`;

const BOOT = `
  (function () {
    var specs = JSON.parse(document.getElementById('parl-charts').textContent);
    var charts = [];
    specs.forEach(function (config, i) {
      var canvas = document.getElementById('parl-chart-' + i);
      config.options = config.options || {};
      config.options.animation = false;
      config.options.responsive = true;
      config.options.maintainAspectRatio = false;
      charts.push(new Chart(canvas, config));
    });
    window.parlCharts = charts;
  })();
`;

/**
 * The HTML of a chart page, with Chart.js and every chart's data inlined.
 *
 * @example
 * ```ts
 * const html = renderChartPage({ title: 'λ1', charts: [{ title: 'λ1', caption: '…', config: { type: 'line', data: { datasets: [] } } }] });
 * ```
 */
export function renderChartPage(page: ChartPage): string {
  const cards = page.charts
    .map(
      (chart, i) => `<section class="card">
  <h2>${escapeHtml(chart.title)}</h2>
  <p class="caption">${escapeHtml(chart.caption)}</p>
  <div class="chart-box"><canvas id="parl-chart-${i}" role="img" aria-label="${escapeHtml(chart.title)}"></canvas></div>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
${page.lead === undefined ? '' : `<p class="lead">${escapeHtml(page.lead)}</p>`}
${(page.blocks ?? []).join('\n')}
<div class="grid">
${cards}
</div>
</main>
<script>${chartJsSource()}</script>
<script type="application/json" id="parl-charts">${scriptSafeJson(page.charts.map((c) => c.config))}</script>
<script>${BOOT}</script>
</body>
</html>
`;
}
