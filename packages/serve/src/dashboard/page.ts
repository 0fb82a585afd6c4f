/**
 * The dashboard page: one self-contained HTML document (no network fetch but its own
 * `events` stream) that draws the server's {@link StatsSnapshot} as tiles and SVG line charts,
 * over time and per training step, updated live from server-sent events.
 *
 * @module
 */
import type { StatsSnapshot } from './live-stats.js';

/** The charts, each a field of a series point, with its title. */
export const DASHBOARD_CHARTS = [
  ['critical_steps', 'Critical steps (mean)'],
  ['parallelism', 'Parallelism (work / critical steps)'],
  ['num_subagents', 'Sub-agents per episode'],
  ['finish_rate', 'Sub-agent finish rate'],
  ['serial_collapse', 'Serial-collapse findings (share of traced episodes)'],
  ['total_reward', 'PARL reward (mean)'],
] as const;

const SCRIPT = String.raw`
const charts = JSON.parse(document.getElementById('charts-def').textContent);
const fmt = (v) => v === undefined ? '–' : (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(3).replace(/\.?0+$/, ''));
function line(points, field, xLabel) {
  const pts = points.filter((p) => p[field] !== undefined);
  const w = 420, h = 120, pad = 28;
  if (pts.length === 0) return '<svg viewBox="0 0 ' + w + ' ' + h + '"><text x="10" y="60" class="empty">no data yet</text></svg>';
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p[field]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(0, ...ys), y1 = Math.max(...ys, y0 + 1e-9);
  const X = (x) => pad + (x1 === x0 ? (w - 2 * pad) / 2 : (x - x0) / (x1 - x0) * (w - 2 * pad));
  const Y = (y) => h - pad + 8 - (y - y0) / (y1 - y0) * (h - 2 * pad);
  const d = pts.map((p, i) => (i ? 'L' : 'M') + X(p.x).toFixed(1) + ' ' + Y(p[field]).toFixed(1)).join(' ');
  return '<svg viewBox="0 0 ' + w + ' ' + h + '" role="img" aria-label="' + field + ' by ' + xLabel + '">' +
    '<path d="' + d + '" fill="none" stroke="#2563eb" stroke-width="2"/>' +
    pts.map((p) => '<circle cx="' + X(p.x).toFixed(1) + '" cy="' + Y(p[field]).toFixed(1) + '" r="2.5" fill="#2563eb"/>').join('') +
    '<text x="2" y="14" class="axis">' + fmt(y1) + '</text><text x="2" y="' + (h - 4) + '" class="axis">' + fmt(y0) + '</text>' +
    '<text x="' + (w - 4) + '" y="' + (h - 4) + '" class="axis" text-anchor="end">' + xLabel + '</text></svg>';
}
function render(s) {
  document.getElementById('episodes').textContent = String(s.total.episodes);
  for (const [field] of charts) document.getElementById('tile-' + field).textContent = fmt(s.total[field]);
  const seconds = s.seconds.map((p) => ({ ...p, x: p.x - (s.seconds[s.seconds.length - 1] || { x: 0 }).x }));
  document.getElementById('over-time').innerHTML = charts.map(([f, title]) => '<figure data-field="' + f + '"><figcaption>' + title + '</figcaption>' + line(seconds, f, 'seconds (0 = now)') + '</figure>').join('');
  const steps = document.getElementById('per-step');
  steps.hidden = s.steps.length === 0;
  document.getElementById('per-step-charts').innerHTML = charts.map(([f, title]) => '<figure data-field="' + f + '"><figcaption>' + title + '</figcaption>' + line(s.steps, f, 'training step') + '</figure>').join('');
  document.getElementById('status').textContent = 'live';
}
document.getElementById('open-episode').onsubmit = (e) => {
  e.preventDefault();
  const id = document.getElementById('episode-id').value.trim();
  if (id !== '') location.href = 'v1/episodes/' + encodeURIComponent(id) + location.search;
};
const events = new EventSource('events' + location.search);
events.onmessage = (e) => render(JSON.parse(e.data));
events.onerror = () => { document.getElementById('status').textContent = 'reconnecting…'; };
`;

const STYLE = `
body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #111; background: #fafafa; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.tiles { display: flex; flex-wrap: wrap; gap: .6rem; margin: 1rem 0; }
.tile { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .5rem .8rem; min-width: 8rem; }
.tile b { display: block; font-size: 1.3rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: .8rem; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .4rem; }
figcaption { font-weight: 600; margin-bottom: .2rem; } svg { width: 100%; height: auto; }
.axis, .empty { font-size: 10px; fill: #666; } #status { color: #666; }
.open { margin: .8rem 0 0; } .open input { width: min(22rem, 60vw); font: inherit; }
`;

/**
 * The dashboard's HTML, with the first snapshot drawn by the page script once the event stream
 * sends it. It names an empty icon, so a browser asks the server for nothing but the page and
 * its event stream (no `/favicon.ico` 404).
 */
export function dashboardHtml(title = 'parl serve'): string {
  const tiles = DASHBOARD_CHARTS.map(([f, t]) => `<div class="tile">${t}<b id="tile-${f}">–</b></div>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${title}</title><style>${STYLE}</style></head>
<body>
<h1>${title}: PARL live</h1>
<div>Episodes since start: <b id="episodes">0</b> · <span id="status">connecting…</span></div>
<form id="open-episode" class="open"><label>Draw one episode (its timeline, critical path and finding): <input id="episode-id" placeholder="trace id or rollout id" required></label> <button>Open</button></form>
<div class="tiles">${tiles}</div>
<h2>Over time (one point per second)</h2>
<div id="over-time" class="grid"></div>
<section id="per-step" hidden><h2>Per training step</h2><div id="per-step-charts" class="grid"></div></section>
<script type="application/json" id="charts-def">${JSON.stringify(DASHBOARD_CHARTS)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}

/** The `data:` payload of one server-sent event. */
export function snapshotEvent(snapshot: StatsSnapshot): string {
  return `data: ${JSON.stringify(snapshot)}\n\n`;
}
