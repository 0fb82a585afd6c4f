import { criticalSteps, ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { TRACE_REPORT_SIZE_BOUND, TraceReportBuilder, traceReportHtml, type TraceReportEntry } from '../src/index.js';
import { readDrawnStages } from '../src/internal/report/drawn-stages.js';
import { launchedTogether } from '../src/internal/report/launched-together.js';
import { layoutTimeline, MAX_TIMELINE_BARS, MAX_TIMELINE_ROWS } from '../src/internal/report/timeline-layout.js';
import { fixtureTraces, generatedTrace, seeded, TYPICAL, WIDE_AND_LONG } from './support/report-traces.js';

const bytes = (html: string): number => Buffer.byteLength(html, 'utf8');
const sectionCount = (html: string): number => html.split('<section class="card trace"').length - 1;

/** A record with a §5.2 nested sub-agent (two levels), and one that did not finish. */
const NESTED = {
  id: 'nested',
  stages: [
    { main_steps: 1, sub_steps: [{ stages: [{ main_steps: 1, sub_steps: [2, { stages: [{ main_steps: 1, sub_steps: [4] }], finished: true }] }, { main_steps: 1, sub_steps: [] }], finished: true }, { steps: 3, finished: false }] },
    { main_steps: 1, sub_steps: [] },
  ],
};

describe('the timeline of a trace', () => {
  it('puts the critical path on bars whose lengths add up to the critical steps, for every fixture and generated trace', async () => {
    const random = seeded(7);
    const traces = [...(await fixtureTraces()), ...Array.from({ length: 200 }, (_, i) => generatedTrace(`g${i}`, random, TYPICAL))];
    expect(traces.length).toBeGreaterThan(200);
    for (const { record, finding } of traces) {
      const stages = readDrawnStages(record, finding, 'test') ?? [];
      const layout = layoutTimeline(stages);
      expect(layout.total).toBe(criticalSteps(record['stages'] as never).critical_steps);
      const onPath = layout.bars.filter((b) => b.critical && b.kind !== 'nested').reduce((s, b) => s + b.length, 0);
      if (layout.hiddenBars === 0) expect(onPath).toBeCloseTo(layout.total, 9);
    }
  });

  it('draws the launched-together schedule of every finding with its critical steps as the finding says', async () => {
    const random = seeded(11);
    const traces = [...(await fixtureTraces()), ...Array.from({ length: 300 }, (_, i) => generatedTrace(`g${i}`, random, TYPICAL))];
    let withPatterns = 0;
    let withNestedPatterns = 0;
    for (const { record, finding } of traces) {
      if (finding === undefined || finding.patterns.length === 0) continue;
      withPatterns++;
      if (finding.patterns.some((p) => p.within.length > 0)) withNestedPatterns++;
      const together = launchedTogether(readDrawnStages(record, finding, 'test') ?? [], finding);
      expect(together.why).toBeUndefined();
      expect(layoutTimeline(together.stages ?? []).total).toBeCloseTo(finding.critical_steps_if_parallel, 9);
    }
    expect(withPatterns).toBeGreaterThan(50);
    expect(withNestedPatterns).toBeGreaterThan(5);
  });

  it('says why, instead of drawing a wrong schedule, when the record is not the finding\'s as-run record', async () => {
    const worked = (await fixtureTraces())[0] as TraceReportEntry;
    expect(worked.finding?.patterns[0]?.kind).toBe('waves');
    const launched = { id: 'trace_demo', stages: [{ main_steps: 1, sub_steps: [1, 2, 1] }, { main_steps: 1, sub_steps: [] }] };
    const html = traceReportHtml([{ record: launched, finding: worked.finding }]);
    expect(html).toContain('Not drawn: the record&#39;s critical steps (4) are not the finding&#39;s as run (5)');
  });

  it('draws §5.2 nested sub-agents as nested rows, their own critical path inside', () => {
    const stages = readDrawnStages(NESTED, undefined, 'test') ?? [];
    const layout = layoutTimeline(stages);
    expect(layout.rows.map((r) => r.label)).toEqual(['orchestrator', 'sub-agent 1', '1.1', '1.2', '1.2.1', 'sub-agent 2']);
    // stage 1: main 1, then max(nested: 1 + max(2, 1 + 4) + 1 = 7, 3) → 8; stage 2: 1
    expect(layout.total).toBe(9);
    const path = layout.bars.filter((b) => b.critical && b.kind !== 'nested');
    expect(path.map((b) => [b.who, b.start, b.length])).toEqual([
      ['orchestrator', 0, 1],
      ['sub-agent 1', 1, 1],
      ['sub-agent 1.2', 2, 1],
      ['sub-agent 1.2.1', 3, 4],
      ['sub-agent 1', 7, 1],
      ['orchestrator', 8, 1],
    ]);
    expect(layout.bars.find((b) => b.who === 'sub-agent 2')?.finished).toBe(false);
    const html = traceReportHtml([{ record: NESTED }]);
    expect(html).toContain('No serial-collapse finding came with this record');
    expect(html).toContain('>1.2.1<');
  });

  it('bounds the rows and bars it draws and says what it left out', () => {
    const wide = generatedTrace('wide', seeded(3), WIDE_AND_LONG);
    const layout = layoutTimeline(readDrawnStages(wide.record, wide.finding, 'test') ?? []);
    expect(layout.rows).toHaveLength(MAX_TIMELINE_ROWS);
    expect(layout.bars).toHaveLength(MAX_TIMELINE_BARS);
    expect(layout.hiddenRows).toBeGreaterThan(0);
    expect(traceReportHtml([wide])).toMatch(/Not drawn: [\d,]+ rows and [\d,]+ bars/);
  });
});

describe('the trace report page', () => {
  it('draws the top N by possible saving and lists the rest, largest saving first', () => {
    const random = seeded(5);
    const traces = Array.from({ length: 120 }, (_, i) => generatedTrace(`t${i}`, random, TYPICAL));
    const html = traceReportHtml(traces, { drawn: 7 });
    expect(sectionCount(html)).toBe(7);
    const bySaving = [...traces].sort((a, b) => (b.finding?.critical_steps_saved ?? 0) - (a.finding?.critical_steps_saved ?? 0));
    const drawnIds = [...html.matchAll(/<section class="card trace" id="t(\d+)"/g)].map((m) => `t${m[1]}`);
    expect(drawnIds.map((id) => traces.findIndex((t) => t.record['id'] === id)).map((i) => traces[i]?.finding?.critical_steps_saved)).toEqual(bySaving.slice(0, 7).map((t) => t.finding?.critical_steps_saved));
    for (const t of traces) expect(html).toContain(`>${String(t.record['id'])}<`);
    const collapsed = traces.filter((t) => t.finding?.serial_collapse).length;
    expect(html).toContain(`<div class="tile" id="sum-collapse">With serial collapse<b>${collapsed}<small>`);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('is the same page whether built at once or trace by trace, and depends on nothing but its input', () => {
    const traces = Array.from({ length: 50 }, (_, i) => generatedTrace(`t${i}`, seeded(i), TYPICAL));
    const builder = new TraceReportBuilder({ drawn: 5 });
    for (const t of traces) builder.add(t);
    expect(builder.count).toBe(50);
    expect(builder.html()).toBe(traceReportHtml(traces, { drawn: 5 }));
  });

  it('escapes ids and names, and cuts an id at 200 characters', () => {
    const id = `<img src=x onerror=alert(1)>${'y'.repeat(400)}`;
    const html = traceReportHtml([{ record: { id, stages: [{ main_steps: 1, sub_steps: [2] }] } }]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('y'.repeat(200));
  });

  it('labels the axis in seconds when the records were read with the wall clock', () => {
    const html = traceReportHtml([{ record: { id: 'w', stages: [{ main_steps: 0.5, sub_steps: [1.25] }] } }], { clock: 'wall' });
    expect(html).toContain('numbers in seconds');
    expect(html).toContain('1.75 seconds');
  });

  it('refuses bad input with the field, the value and what was expected', () => {
    const err = (f: () => unknown): ParlInputError => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ParlInputError);
        return e as ParlInputError;
      }
      throw new Error('no error thrown');
    };
    expect(err(() => traceReportHtml([], { drawn: 2.5 })).message).toMatch(/drawn must be an integer from 0 to 1000, got 2\.5/);
    expect(err(() => traceReportHtml([], { drawn: 1001 })).field).toBe('drawn');
    const negative = err(() => traceReportHtml([{ record: { id: 'a', stages: [{ main_steps: 1, sub_steps: [{ stages: [{ main_steps: 1, sub_steps: [-3] }] }] }] } }]));
    expect(negative.message).toBe('trace a: stages[0].sub_steps[0].stages[0].sub_steps[0] must be a finite number ≥ 0, got -3');
    const both = err(() => traceReportHtml([{ record: { id: 'b', stages: [{ main_steps: 1, sub_steps: [{ steps: 1, stages: [] }] }] } }]));
    expect(both.field).toBe('stages[0].sub_steps[0]');
    expect(both.expected).toMatch(/either steps or stages/);
    let deep: unknown = { steps: 1 };
    for (let d = 0; d < 17; d++) deep = { stages: [{ main_steps: 1, sub_steps: [deep] }] };
    expect(err(() => traceReportHtml([{ record: { id: 'c', stages: [{ main_steps: 1, sub_steps: [deep] }] } }])).expected).toMatch(/at most 16 levels/);
    expect(err(() => traceReportHtml([{ record: { id: 'd', stages: 'none' } }])).field).toBe('stages');
    expect(err(() => traceReportHtml([{ record: null as never }])).field).toBe('record');
  });
});

describe('the size of the page', () => {
  const { fixedBytes, perDrawnTraceBytes, perListedTraceBytes } = TRACE_REPORT_SIZE_BOUND;

  it('stays within the stated bound on 3000 traces, the largest shapes among them', { timeout: 120_000 }, async () => {
    const random = seeded(2026);
    const traces: TraceReportEntry[] = [...(await fixtureTraces())];
    for (let i = 0; traces.length < 3000; i++) {
      const shape = i % 300 === 0 ? WIDE_AND_LONG : TYPICAL;
      traces.push(generatedTrace(`${i % 97 === 0 ? 'z'.repeat(5000) : ''}trace-${i}`, random, shape));
    }
    for (const drawn of [0, 20, 100]) {
      const html = traceReportHtml(traces, { drawn });
      expect(sectionCount(html)).toBe(drawn);
      expect(bytes(html)).toBeLessThanOrEqual(fixedBytes + drawn * perDrawnTraceBytes + (traces.length - drawn) * perListedTraceBytes);
    }
  });

  it('keeps each part within its share: the empty page, the widest drawn traces, the longest listed ids', { timeout: 120_000 }, () => {
    expect(bytes(traceReportHtml([]))).toBeLessThanOrEqual(fixedBytes);
    const random = seeded(9);
    const widest = Array.from({ length: 10 }, (_, i) => generatedTrace(`${'w'.repeat(5000)}${i}`, random, WIDE_AND_LONG));
    expect(bytes(traceReportHtml(widest, { drawn: 10 }))).toBeLessThanOrEqual(fixedBytes + 10 * perDrawnTraceBytes);
    const listed = Array.from({ length: 1000 }, (_, i) => generatedTrace(`${'&'.repeat(5000)}${i}`, random, TYPICAL));
    expect(bytes(traceReportHtml(listed, { drawn: 0 }))).toBeLessThanOrEqual(fixedBytes + 1000 * perListedTraceBytes);
  });
});
