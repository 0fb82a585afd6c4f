/**
 * The few numbers the report keeps for every trace (drawn or only listed), and the summary
 * over all traces: counts, the parallelism distribution, and the tables of traces.
 *
 * @module
 */
import type { SerialPatternKind } from '../../finding.js';
import { capText, escapeHtml, formatNumber, percent, plural } from './html-text.js';

/** Characters of a trace id printed at most (a longer id is cut with an ellipsis). */
export const REPORT_ID_CHARS = 200;

/** What the report keeps of one trace. */
export interface TraceSummary {
  /** Its position in the input (0-based). */
  readonly ordinal: number;
  /** Its id, cut to {@link REPORT_ID_CHARS}. */
  readonly id: string;
  /** Critical steps as run. */
  readonly asRun: number;
  /** Critical steps if launched together. */
  readonly ifParallel: number;
  /** Critical steps saved. */
  readonly saved: number;
  /** Work / critical steps (by `@parl/core`); undefined for a record without stages. */
  readonly parallelism: number | undefined;
  /** The finding says serial collapse. */
  readonly collapse: boolean;
  /** The kinds of its serial patterns. */
  readonly kinds: readonly SerialPatternKind[];
  /** False when no finding came with the record. */
  readonly hasFinding: boolean;
}

/** Largest saving first, then longest as run, then input order. */
export function bySaving(a: TraceSummary, b: TraceSummary): number {
  return b.saved - a.saved || b.asRun - a.asRun || a.ordinal - b.ordinal;
}

/** The parallelism bins of the distribution: label, lower bound (exclusive except the first), upper bound (inclusive). */
const BINS: readonly (readonly [string, number, number])[] = [
  ['1 (serial)', -Infinity, 1],
  ['1 – 1.5', 1, 1.5],
  ['1.5 – 2', 1.5, 2],
  ['2 – 3', 2, 3],
  ['3 – 5', 3, 5],
  ['over 5', 5, Infinity],
];

function tile(label: string, value: string, id: string, share?: string): string {
  return `<div class="tile" id="${id}">${label}<b>${value}${share === undefined ? '' : `<small>${share}</small>`}</b></div>`;
}

/** The tiles, the parallelism distribution and the pattern counts over all traces (HTML). */
export function summaryHtml(all: readonly TraceSummary[], unit: string): string {
  const n = all.length;
  const collapsed = all.filter((t) => t.collapse).length;
  const asRun = all.reduce((s, t) => s + t.asRun, 0);
  const saved = all.reduce((s, t) => s + t.saved, 0);
  const measured = all.filter((t) => t.parallelism !== undefined).map((t) => t.parallelism as number);
  const sorted = [...measured].sort((a, b) => a - b);
  const median = sorted.length === 0 ? undefined : sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
  const tiles = [
    tile('Traces', formatNumber(n), 'sum-traces'),
    tile('With serial collapse', formatNumber(collapsed), 'sum-collapse', percent(collapsed, n)),
    tile(`${unit[0]?.toUpperCase() ?? ''}${unit.slice(1)} as run`, formatNumber(asRun), 'sum-asrun'),
    tile('Saved if launched together', formatNumber(saved), 'sum-saved', percent(saved, asRun)),
    tile('Median parallelism', median === undefined ? '–' : formatNumber(median), 'sum-parallelism'),
  ].join('');
  const counts = BINS.map(([, lo, hi]) => measured.filter((p) => p > lo && p <= hi).length);
  const most = Math.max(1, ...counts);
  const hist = BINS.map(([label], i) => {
    const c = counts[i] as number;
    return `<span>${label}</span><span class="bar"><i style="width:${formatNumber((100 * c) / most).replace(/,/g, '')}%"></i></span><span class="n">${formatNumber(c)}</span>`;
  }).join('');
  const withKind = (kind: SerialPatternKind): number => all.filter((t) => t.kinds.includes(kind)).length;
  const noStages = n - measured.length;
  const patterns = `<ul>
<li>${plural(collapsed, 'trace')} with serial collapse (${percent(collapsed, n)}), saving up to ${formatNumber(saved)} ${unit} if their work had been launched together.</li>
<li>${plural(withKind('waves'), 'trace')} with <b>waves</b> (one turn's sub-agents ran one after another).</li>
<li>${plural(withKind('one_per_turn'), 'trace')} with <b>one per turn</b> (consecutive turns each launched one sub-agent or did the work itself).</li>
<li>${plural(all.filter((t) => t.kinds.length > 0 && !t.collapse).length, 'trace')} whose serial patterns are all dependent work (no collapse).</li>
${noStages > 0 ? `<li>${plural(noStages, 'record')} without stages (not in the distribution).</li>` : ''}</ul>`;
  return `<div class="tiles">${tiles}</div>
<div class="cols"><section class="card"><h3>Parallelism (work / critical steps)</h3><div class="hist" id="parallelism-hist">${hist}</div></section>
<section class="card"><h3>Serial patterns</h3>${patterns}</section></div>`;
}

function verdict(t: TraceSummary): string {
  if (!t.hasFinding) return '<span class="no">no finding</span>';
  return t.collapse ? '<span class="yes">serial collapse</span>' : '<span class="no">no</span>';
}

/**
 * A table of traces, largest saving first (HTML). `link` makes each id a link to its drawing.
 */
export function traceTableHtml(traces: readonly TraceSummary[], unit: string, link: boolean, id: string): string {
  const rows = traces
    .map((t, i) => {
      const name = escapeHtml(capText(t.id, REPORT_ID_CHARS));
      return `<tr><td class="n">${i + 1}</td><td class="id">${link ? `<a href="#t${t.ordinal}">${name}</a>` : name}</td><td class="n">${formatNumber(t.asRun)}</td><td class="n">${formatNumber(t.ifParallel)}</td><td class="n">${formatNumber(t.saved)}</td><td class="n">${t.parallelism === undefined ? '–' : formatNumber(t.parallelism)}</td><td>${verdict(t)}</td></tr>`;
    })
    .join('\n');
  return `<table id="${id}"><colgroup><col class="rank"><col><col class="num"><col class="num"><col class="num"><col class="num"><col class="v"></colgroup>
<thead><tr><th class="n">#</th><th>trace</th><th class="n">as run</th><th class="n">together</th><th class="n">saved</th><th class="n">parallel.</th><th>finding</th></tr></thead>
<tbody>
${rows}
</tbody></table><p class="note">Numbers in ${unit}; “together” is the schedule with each serial pattern's work launched together.</p>`;
}
