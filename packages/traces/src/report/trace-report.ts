/**
 * The trace report: one self-contained HTML page (inline CSS, no script, no network) with a
 * summary over all traces, the top N traces by possible saving drawn as timelines, and the rest
 * listed. A pure function of records and findings: no file, no clock, no randomness.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { SerialCollapseFinding } from '../finding.js';
import type { TraceClock } from '../options.js';
import { measureStages, readDrawnStages, type DrawnStage } from '../internal/report/drawn-stages.js';
import { capText, escapeHtml, plural } from '../internal/report/html-text.js';
import { REPORT_STYLE } from '../internal/report/report-style.js';
import { traceSectionHtml } from '../internal/report/trace-section.js';
import { bySaving, REPORT_ID_CHARS, summaryHtml, traceTableHtml, type TraceSummary } from '../internal/report/trace-summary.js';

import { DEFAULT_REPORT_DRAWN, MAX_REPORT_DRAWN } from './report-limits.js';

export { DEFAULT_REPORT_DRAWN, MAX_REPORT_DRAWN } from './report-limits.js';

/**
 * The size bound of a report, checked by the package's tests on thousands of generated traces
 * (the widest and longest records, long ids and names, many patterns): a page is at most
 * `fixedBytes + drawn × perDrawnTraceBytes + listed × perListedTraceBytes` bytes of UTF-8, where
 * `drawn` traces are drawn and `listed` are only listed. A drawn timeline has at most 24 rows and
 * 150 bars, and ids are cut at 200 characters, which is what keeps each part bounded.
 */
export const TRACE_REPORT_SIZE_BOUND = {
  /** The page without any trace: style, headings, summary, legend. */
  fixedBytes: 16_000,
  /** One drawn trace: its table row, finding in words and both timelines. */
  perDrawnTraceBytes: 64_000,
  /** One listed trace: its table row. */
  perListedTraceBytes: 1_600,
} as const;

/** One trace for the report: its spec §5 record (as run, spec §7) and its finding. */
export interface TraceReportEntry {
  /** The spec §5 record (`id`, `stages`; §5.2 nested entries are drawn as nested rows). */
  readonly record: Readonly<Record<string, unknown>>;
  /** Its serial-collapse finding (from `readTraces`, `parl trace --findings` or `parl serve`); without it only the stages are drawn. */
  readonly finding?: SerialCollapseFinding | undefined;
}

/** Options of the trace report. */
export interface TraceReportOptions {
  /** Traces drawn as timelines, largest possible saving first (default {@link DEFAULT_REPORT_DRAWN}, 0 to {@link MAX_REPORT_DRAWN}); the rest are listed. */
  readonly drawn?: number;
  /** The page title (default `PARL trace report`). */
  readonly title?: string;
  /** How the records' steps were measured: `count` (model calls, the default) or `wall` (seconds), as `parl trace --clock`. */
  readonly clock?: TraceClock;
}

interface DrawCandidate {
  readonly summary: TraceSummary;
  readonly stages: readonly DrawnStage[] | undefined;
  readonly finding: SerialCollapseFinding | undefined;
}

function checkDrawn(value: number | undefined): number {
  if (value === undefined) return DEFAULT_REPORT_DRAWN;
  if (!Number.isInteger(value) || value < 0 || value > MAX_REPORT_DRAWN) throw new ParlInputError('drawn', value, `an integer from 0 to ${MAX_REPORT_DRAWN}`);
  return value;
}

/**
 * Builds a trace report one trace at a time, holding the few numbers of each trace and the full
 * drawing input of the top `drawn` only, so that memory grows by a summary per trace.
 *
 * @example
 * ```ts
 * const input = [JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8aa5a2d2c872e8321cf37308d69df2', spanId: 'a1',
 *   name: 'invoke_agent main', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000003000000000',
 *   attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] }] }] }] })]; // e.g. createReadStream('traces.jsonl')
 * const report = new TraceReportBuilder({ drawn: 10 });
 * for await (const r of readTraces(input)) report.add({ record: r.record, finding: r.finding });
 * const html = report.html();
 * ```
 */
export class TraceReportBuilder {
  private readonly drawn: number;
  private readonly title: string;
  private readonly unit: string;
  private readonly summaries: TraceSummary[] = [];
  private readonly candidates: DrawCandidate[] = [];

  /** @throws `ParlInputError` for a `drawn` that is not an integer from 0 to {@link MAX_REPORT_DRAWN} */
  constructor(options: TraceReportOptions = {}) {
    this.drawn = checkDrawn(options.drawn);
    this.title = options.title ?? 'PARL trace report';
    this.unit = options.clock === 'wall' ? 'seconds' : 'critical steps';
  }

  /** Traces added. */
  get count(): number {
    return this.summaries.length;
  }

  /**
   * Add one trace.
   *
   * @throws `ParlInputError` naming the trace and field for a record whose stages are not spec §5 stages
   */
  add(entry: TraceReportEntry): void {
    const ordinal = this.summaries.length;
    const { record, finding } = entry;
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new ParlInputError('record', record, 'a spec §5 record (a JSON object)', `trace ${ordinal + 1}`);
    const rawId = record['id'] ?? finding?.trace_id;
    const id = rawId === undefined ? `record ${ordinal + 1}` : String(rawId);
    const stages = readDrawnStages(record, finding, `trace ${capText(id, REPORT_ID_CHARS)}`);
    const measured = stages === undefined ? undefined : measureStages(stages);
    const asRun = finding?.critical_steps_as_run ?? measured?.critical ?? 0;
    const summary: TraceSummary = {
      ordinal,
      id: capText(id, REPORT_ID_CHARS),
      asRun,
      ifParallel: finding?.critical_steps_if_parallel ?? asRun,
      saved: finding?.critical_steps_saved ?? 0,
      parallelism: measured?.parallelism,
      collapse: finding?.serial_collapse ?? false,
      kinds: [...new Set(finding?.patterns.map((p) => p.kind) ?? [])],
      hasFinding: finding !== undefined,
    };
    this.summaries.push(summary);
    if (this.drawn === 0) return;
    const worst = this.candidates[this.candidates.length - 1];
    if (this.candidates.length >= this.drawn && worst !== undefined && bySaving(summary, worst.summary) >= 0) return;
    let lo = 0;
    let hi = this.candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bySaving((this.candidates[mid] as DrawCandidate).summary, summary) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.candidates.splice(lo, 0, { summary, stages, finding });
    if (this.candidates.length > this.drawn) this.candidates.pop();
  }

  /** The page. */
  html(): string {
    const drawnOrdinals = new Set(this.candidates.map((c) => c.summary.ordinal));
    const listed = this.summaries.filter((s) => !drawnOrdinals.has(s.ordinal)).sort(bySaving);
    const unit = this.unit;
    const title = escapeHtml(this.title);
    const legend = `<div class="legend"><span><i class="b m"></i>own steps (orchestrator, or a nested sub-agent's)</span><span><i class="b"></i>sub-agent</span><span><i class="b c"></i>on the critical path</span><span><i class="b x"></i>did not finish</span><span><i class="b n"></i>a nested sub-agent's whole span</span><span><i class="b o"></i>a turn's own work, launched as a sub-agent</span><span><i class="band pattern"></i>a serial pattern (numbered as in the finding)</span></div>`;
    const sections = this.candidates.map((c) => traceSectionHtml(c.summary, c.stages, c.finding, unit)).join('\n');
    if (this.summaries.length === 1 && this.candidates.length === 1) return page(title, `<p class="sub">The record is as run (spec §7); numbers in ${unit}.</p><section class="card">${legend}</section>\n${sections}`);
    const drawnPart =
      this.candidates.length === 0
        ? ''
        : `<section class="card"><h2>Largest possible saving first</h2>${traceTableHtml(this.candidates.map((c) => c.summary), unit, true, 'drawn-table')}</section>
<h2>${plural(this.candidates.length, 'trace')} drawn</h2>
<section class="card"><p class="sub">Each timeline is in ${unit}: a stage starts where the one before ended, the orchestrator's own steps first, then its sub-agents side by side. Hover a bar for who it is.</p>${legend}</section>
${sections}`;
    const listedPart =
      listed.length === 0 ? '' : `<section class="card"><h2>${plural(listed.length, 'other trace')}, largest possible saving first</h2>${traceTableHtml(listed, unit, false, 'listed-table')}</section>`;
    return page(title, `<p class="sub">${plural(this.summaries.length, 'trace')}: the top ${this.candidates.length} by critical steps a launched-together schedule would save are drawn, the rest listed. Records are as run (spec §7); numbers in ${unit}.</p>
${summaryHtml(this.summaries, unit)}
${drawnPart}
${listedPart}`);
  }
}

/** The document around the body of a report. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<link rel="icon" href="data:,"><title>${title}</title><style>${REPORT_STYLE}</style></head>
<body><main>
<h1>${title}</h1>
${body}
</main></body></html>
`;
}

/**
 * The trace report of a list of traces, as one self-contained HTML page (see
 * {@link TraceReportBuilder}; its size is bounded by {@link TRACE_REPORT_SIZE_BOUND}).
 *
 * @param traces - records and findings, e.g. `readTraces`' results
 * @param options - see {@link TraceReportOptions}
 * @throws `ParlInputError` for a bad option or a record whose stages are not spec §5 stages
 *
 * @example
 * ```ts
 * import { createReadStream, writeFileSync } from 'node:fs';
 * writeFileSync('traces.jsonl', `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
 *   spanId: 'a1', name: 'invoke_agent main', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000003000000000',
 *   attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] }] }] }] })}\n`);
 * const results = [];
 * for await (const r of readTraces(createReadStream('traces.jsonl'))) results.push({ record: r.record, finding: r.finding });
 * writeFileSync('traces.html', traceReportHtml(results, { drawn: 20 }));
 * ```
 */
export function traceReportHtml(traces: Iterable<TraceReportEntry>, options: TraceReportOptions = {}): string {
  const builder = new TraceReportBuilder(options);
  for (const entry of traces) builder.add(entry);
  return builder.html();
}
