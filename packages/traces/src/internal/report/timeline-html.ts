/**
 * One laid-out timeline as HTML: rows of absolutely placed bars (percentages of the scale, so the
 * drawing follows the page width), an axis, and bands over the stages of each serial pattern.
 * Plain HTML and CSS, no script.
 *
 * @module
 */
import { capText, escapeHtml, formatNumber, plural } from './html-text.js';
import { MAX_TIMELINE_BARS, MAX_TIMELINE_ROWS, type TimelineBar, type TimelineLayout } from './timeline-layout.js';

/** Characters of an agent name kept in a bar's tooltip. */
const NAME_CHARS = 40;

/** A band drawn over part of a timeline. */
export interface TimelineBand {
  /** Start, in critical steps. */
  readonly start: number;
  /** End, in critical steps. */
  readonly end: number;
  /** A short mark shown in the band (`1`, `2`, …). */
  readonly mark: string;
  /** Its tooltip. */
  readonly title: string;
  /** CSS class: `pattern` or `saved`. */
  readonly kind: 'pattern' | 'saved';
}

function pct(value: number, scale: number): string {
  return scale <= 0 ? '0' : formatNumber(Math.min(100, (100 * value) / scale)).replace(/,/g, '');
}

/** Tick spacing: 1, 2 or 5 times a power of ten, about five ticks over the scale. */
function tickStep(scale: number): number {
  const raw = scale / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

function axisHtml(scale: number, unit: string): string {
  if (scale <= 0) return `<div class="axis"><span style="left:0">0 ${escapeHtml(unit)}</span></div>`;
  const step = tickStep(scale);
  const ticks: string[] = [];
  for (let k = 0; k * step <= scale * (1 + 1e-9) && k <= 10; k++) {
    const at = (100 * k * step) / scale;
    const shift = at > 88 ? ' class="r"' : '';
    ticks.push(`<span${shift} style="left:${pct(k * step, scale)}%">${formatNumber(k * step)}</span>`);
  }
  return `<div class="axis" title="${escapeHtml(unit)}">${ticks.join('')}</div>`;
}

function barTitle(bar: TimelineBar, unit: string): string {
  const parts = [`stage ${bar.stage + 1}`, bar.name === undefined ? bar.who : `${bar.who} “${capText(bar.name, NAME_CHARS)}”`];
  if (bar.kind === 'main') parts[1] = `${bar.who}'s own steps`;
  if (bar.kind === 'own') parts[1] = 'the turn’s own work, launched as a sub-agent';
  if (bar.kind === 'nested') parts.push('nested sub-agent (its own critical steps)');
  parts.push(`${formatNumber(bar.length)} ${unit}`);
  if (bar.wallMs !== undefined) parts.push(`${formatNumber(bar.wallMs)} ms wall clock`);
  if (!bar.finished) parts.push('did not finish');
  if (bar.critical) parts.push('on the critical path');
  return escapeHtml(parts.join(' · '));
}

function barHtml(bar: TimelineBar, scale: number, unit: string): string {
  const cls = `b ${bar.kind[0] as string}${bar.critical ? ' c' : ''}${bar.finished ? '' : ' x'}`;
  return `<i class="${cls}" style="left:${pct(bar.start, scale)}%;width:${pct(bar.length, scale)}%" title="${barTitle(bar, unit)}"></i>`;
}

/**
 * A timeline as HTML.
 *
 * @param layout - from `layoutTimeline`
 * @param scale - critical steps the full width stands for (the as-run total, so that the
 *   launched-together timeline is drawn shorter on the same scale)
 * @param unit - what a step is (`critical steps`, or `seconds` with the wall clock)
 * @param bands - pattern or saving bands drawn over the rows
 * @param label - the accessible name of the drawing
 */
export function timelineHtml(layout: TimelineLayout, scale: number, unit: string, bands: readonly TimelineBand[], label: string): string {
  const byRow = new Map<number, string[]>();
  for (const bar of layout.bars) {
    const list = byRow.get(bar.row) ?? [];
    list.push(barHtml(bar, scale, unit));
    byRow.set(bar.row, list);
  }
  const rows = layout.rows
    .map((row, r) => `<div class="row"><span class="lbl d${Math.min(row.depth, 3)}">${escapeHtml(row.label)}</span><span class="trk">${(byRow.get(r) ?? []).join('')}</span></div>`)
    .join('');
  const bandHtml = bands
    .map((b) => `<span class="band ${b.kind}" style="left:${pct(b.start, scale)}%;width:${pct(b.end - b.start, scale)}%" title="${escapeHtml(b.title)}"><b>${escapeHtml(b.mark)}</b></span>`)
    .join('');
  const hidden =
    layout.hiddenRows > 0 || layout.hiddenBars > 0
      ? `<p class="note">Not drawn: ${plural(layout.hiddenRows, 'row')} and ${plural(layout.hiddenBars, 'bar')} (a timeline draws at most ${MAX_TIMELINE_ROWS} rows and ${MAX_TIMELINE_BARS} bars; the record has them all).</p>`
      : '';
  return `<div class="tl" role="img" aria-label="${escapeHtml(label)}"><div class="bands">${bandHtml}</div>${rows}${axisHtml(scale, unit)}</div>${hidden}`;
}
