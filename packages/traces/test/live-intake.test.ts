/**
 * LiveTraceIntake: exported spans assembled live, finished after a quiet period; the per-trace
 * and total span bounds.
 */
import { describe, expect, it } from 'vitest';
import { LiveTraceIntake, readExportRequest, type LiveDropReason, type TraceResult } from '../src/index.js';
import { otlpSpan, smallTrace } from './support/hand-spans.js';

function request(spans: Record<string, unknown>[]) {
  return readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, 'parl.rollout_id');
}

function setup(options: { quietPeriodMs: number; maxSpansPerTrace?: number; maxOpenSpans?: number }) {
  let clock = 1000;
  const episodes: [TraceResult, string | undefined][] = [];
  const dropped: [string, LiveDropReason][] = [];
  const intake = new LiveTraceIntake(
    { ...options, onEpisode: (r, rollout) => episodes.push([r, rollout]), onDropped: (id, why) => dropped.push([id, why]), onWarning: () => {} },
    () => clock,
  );
  return { intake, episodes, dropped, advance: (ms: number) => (clock += ms) };
}

describe('LiveTraceIntake', () => {
  it('finishes a trace only after its root came and the quiet period passed with no span of it', () => {
    const { intake, episodes, advance } = setup({ quietPeriodMs: 100 });
    const [llm, subllm, sub, root] = smallTrace('t1').map(otlpSpan);
    intake.add(request([root as Record<string, unknown>, llm as Record<string, unknown>]));
    advance(60);
    intake.add(request([subllm as Record<string, unknown>]));
    advance(60);
    intake.sweep();
    intake.flush();
    expect(episodes).toHaveLength(0);
    intake.add(request([sub as Record<string, unknown>]));
    advance(100);
    intake.sweep();
    intake.flush();
    expect(episodes.map(([r]) => r.traceId)).toEqual(['t1']);
    expect(intake.openTraces).toBe(0);
    expect(intake.openSpans).toBe(0);
    intake.close('test over');
  });

  it('drops a trace over maxSpansPerTrace, discards its later spans, and finishes nothing for it', () => {
    const { intake, episodes, dropped, advance } = setup({ quietPeriodMs: 10, maxSpansPerTrace: 3 });
    const spans = smallTrace('big').map(otlpSpan);
    intake.add(request(spans.slice(0, 3)));
    expect(intake.openSpans).toBe(3);
    intake.add(request(spans.slice(3)));
    expect(dropped).toEqual([['big', 'trace-spans']]);
    expect(intake.openSpans).toBe(0);
    for (let i = 0; i < 10; i++) intake.add(request([otlpSpan({ trace: 'big', id: `extra${i}`, parent: 'big-root', op: 'chat', start: 0, end: 1 })]));
    expect(intake.openSpans).toBe(0);
    advance(20);
    intake.sweep();
    intake.flush();
    expect(episodes).toHaveLength(0);
    expect(dropped).toHaveLength(1);
    expect(intake.openTraces).toBe(0);
    intake.close('test over');
  });

  it('holds at most maxOpenSpans over all traces, dropping the oldest open trace first', () => {
    const { intake, dropped } = setup({ quietPeriodMs: 10, maxOpenSpans: 5 });
    // Rootless traces: their roots never come.
    for (const t of ['a', 'b', 'c']) intake.add(request(smallTrace(t).slice(0, 3).map(otlpSpan)));
    expect(intake.openSpans).toBeLessThanOrEqual(5);
    expect(dropped).toEqual([
      ['a', 'open-spans'],
      ['b', 'open-spans'],
    ]);
    expect(intake.openSpans).toBe(3);
    intake.close('test over');
  });
});
