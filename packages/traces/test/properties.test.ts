import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { criticalSteps } from '@parl/core';
import { traceToResult, type TraceSpan } from '../src/index.js';
import { otlpLine, type HandSpan } from './support/hand-spans.js';
import { chunked, collect } from './support/collect.js';

/** A random two-level trace: turns of orchestrator LLM calls, each followed by sub-agents with random windows. */
const arbTrace = fc
  .array(
    fc.array(fc.record({ delay: fc.integer({ min: 0, max: 50 }), length: fc.integer({ min: 1, max: 60 }), llm: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), { maxLength: 4 }),
    { minLength: 1, maxLength: 4 },
  )
  .map((turns) => {
    const spans: HandSpan[] = [];
    let t = 0;
    let n = 0;
    turns.forEach((subs) => {
      spans.push({ id: `llm${n++}`, parent: 'root', op: 'chat', start: t, end: t + 10 });
      t += 10;
      let end = t;
      for (const s of subs) {
        const id = `sub${n++}`;
        const start = t + s.delay;
        spans.push({ id, parent: 'root', op: 'invoke_agent', agent: id, start, end: start + s.length });
        for (let k = 0; k < s.llm; k++) spans.push({ id: `${id}-l${k}`, parent: id, op: 'chat', start, end: start + 1 });
        end = Math.max(end, start + s.length);
      }
      t = end + 1;
    });
    spans.push({ id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: t });
    return spans;
  });

function toSpans(hand: readonly HandSpan[]): TraceSpan[] {
  return hand.map((h) => ({
    traceId: 'p',
    spanId: h.id,
    parentId: h.parent,
    name: h.agent ?? h.id,
    role: h.op === 'chat' ? 'llm' : 'agent',
    rawKind: h.op ?? '',
    startMs: h.start,
    endMs: h.end,
    error: false,
    format: 'otlp',
    location: 'test',
    warnings: [],
  }));
}

describe('properties', () => {
  it('launching together never costs critical steps, and the finding agrees with core on both groupings', () => {
    fc.assert(
      fc.property(arbTrace, (hand) => {
        const spans = toSpans(hand);
        const children = traceToResult('p', spans, { grouping: 'children' });
        const overlap = traceToResult('p', spans);
        const f = overlap.finding;
        expect(children.finding).toEqual(f);
        expect(f.critical_steps_saved).toBeGreaterThanOrEqual(0);
        expect(f.critical_steps_as_run).toBe(criticalSteps(overlap.record.stages ?? []).critical_steps);
        expect(f.critical_steps_as_run - f.critical_steps_if_parallel).toBe(f.critical_steps_saved);
        // Launching each turn's waves together is part of the parallel figure; one_per_turn patterns can only save more.
        expect(f.critical_steps_if_parallel).toBeLessThanOrEqual(criticalSteps(children.record.stages ?? []).critical_steps);
        if (!f.patterns.some((p) => p.kind === 'one_per_turn')) {
          expect(f.critical_steps_if_parallel).toBe(criticalSteps(children.record.stages ?? []).critical_steps);
        }
        // Steps are saved only where a pattern was found (no content here: independence is unknown).
        if (!f.serial_collapse) expect(f.critical_steps_saved).toBe(0);
        if (f.critical_steps_saved > 0) expect(f.patterns.length).toBeGreaterThan(0);
        for (const p of f.patterns) expect(p.independence).toBe('unknown');
        // Same work either way: only the grouping differs.
        expect(criticalSteps(children.record.stages ?? []).total_steps).toBe(criticalSteps(overlap.record.stages ?? []).total_steps);
      }),
      { numRuns: 150 },
    );
  });

  it('the records do not depend on where the input is split into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(arbTrace, fc.integer({ min: 1, max: 300 }), async (hand, size) => {
        const text = `${otlpLine(hand)}\n`;
        const whole = await collect([text]);
        const parts = await collect(chunked(text, size));
        expect(parts.results.map((r) => r.record)).toEqual(whole.results.map((r) => r.record));
      }),
      { numRuns: 40 },
    );
  });
});
