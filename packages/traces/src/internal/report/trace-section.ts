/**
 * One drawn trace: its finding in words, its timeline as run with the critical path and the
 * serial patterns marked, and the launched-together timeline on the same scale.
 *
 * @module
 */
import type { SerialCollapseFinding } from '../../finding.js';
import type { DrawnStage } from './drawn-stages.js';
import { findingWords, MAX_PATTERNS_DESCRIBED } from './finding-words.js';
import { capText, escapeHtml, formatNumber } from './html-text.js';
import { launchedTogether } from './launched-together.js';
import { timelineHtml, type TimelineBand } from './timeline-html.js';
import { layoutTimeline, type TimelineLayout } from './timeline-layout.js';
import { REPORT_ID_CHARS, type TraceSummary } from './trace-summary.js';

function patternBands(layout: TimelineLayout, finding: SerialCollapseFinding): TimelineBand[] {
  return finding.patterns.slice(0, MAX_PATTERNS_DESCRIBED).flatMap((p, i) => {
    // A pattern inside a nested sub-agent is described in words; its stages are not the top level's.
    if (p.within.length > 0) return [];
    const first = layout.stageSpans[p.stages[0] ?? -1];
    const last = layout.stageSpans[p.stages[p.stages.length - 1] ?? -1];
    if (first === undefined || last === undefined) return [];
    const from = (p.stages[0] ?? 0) + 1;
    const to = (p.stages[p.stages.length - 1] ?? 0) + 1;
    const title = `${i + 1}: ${p.kind === 'waves' ? 'waves' : 'one per turn'}, ${from === to ? `stage ${from}` : `stages ${from}–${to}`}, independence ${p.independence}`;
    return [{ start: first.start, end: last.end, mark: String(i + 1), title, kind: 'pattern' as const }];
  });
}

/**
 * The section of one drawn trace (HTML).
 *
 * @param summary - its numbers (id, ordinal)
 * @param stages - its stages as drawn; undefined for a record without stages
 * @param finding - its finding, when one came with the record
 * @param unit - what a step is
 */
export function traceSectionHtml(summary: TraceSummary, stages: readonly DrawnStage[] | undefined, finding: SerialCollapseFinding | undefined, unit: string): string {
  const head = `<h2>${escapeHtml(capText(summary.id, REPORT_ID_CHARS))}</h2>`;
  const words = finding === undefined ? '<p class="note">No serial-collapse finding came with this record: only its stages are drawn.</p>' : findingWords(finding, unit, stages?.reduce((n, s) => n + s.subs.length, 0));
  if (stages === undefined) return `<section class="card trace" id="t${summary.ordinal}">${head}${words}<p class="note">The record has no stages to draw.</p></section>`;
  const asRun = layoutTimeline(stages);
  const scale = asRun.total;
  const asRunHtml = `<h3>As run</h3>${timelineHtml(asRun, scale, unit, finding === undefined ? [] : patternBands(asRun, finding), `timeline as run, ${formatNumber(asRun.total)} ${unit}`)}`;
  let togetherHtml = '';
  if (finding !== undefined && finding.patterns.length > 0) {
    const together = launchedTogether(stages, finding);
    if (together.stages === undefined) {
      togetherHtml = `<h3>Launched together</h3><p class="note">Not drawn: ${escapeHtml(together.why)}.</p>`;
    } else {
      const layout = layoutTimeline(together.stages);
      const bands: TimelineBand[] =
        layout.total < scale ? [{ start: layout.total, end: scale, mark: `saved ${formatNumber(scale - layout.total)}`, title: `saved if launched together: ${formatNumber(scale - layout.total)} ${unit}`, kind: 'saved' }] : [];
      togetherHtml = `<h3>Launched together (each pattern not shown dependent)</h3>${timelineHtml(layout, scale, unit, bands, `timeline launched together, ${formatNumber(layout.total)} ${unit}`)}`;
    }
  }
  return `<section class="card trace" id="t${summary.ordinal}" data-trace-ordinal="${summary.ordinal}">${head}${words}${asRunHtml}${togetherHtml}</section>`;
}
