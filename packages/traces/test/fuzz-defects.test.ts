/** Defects found by fuzzing `parl trace` (issue 11, item 9), and the never-silently-wrong rules of spec §7. */
import { describe, expect, it } from 'vitest';
import { TraceInputError } from '../src/index.js';
import { collect, collectError } from './support/collect.js';
import { otlpLine, otlpSpan, smallTrace } from './support/hand-spans.js';

describe('fuzz defects (issue 11.9)', () => {
  it('a span without traceId or spanId is an OTLP span error naming the field, not a native record', async () => {
    for (const missing of ['traceId', 'spanId'] as const) {
      const span = otlpSpan({ id: 's1', op: 'chat', start: 0, end: 10 });
      delete span[missing];
      const err = await collectError([`${JSON.stringify(span)}\n`]);
      expect(err).toBeInstanceOf(TraceInputError);
      expect(err.message).toContain(`line 1: `);
      expect(err.message).toContain(`.${missing} must be a non-empty id string`);
    }
  });

  it('a 400-digit endTimeUnixNano is an error naming the span, never Infinity', async () => {
    const span = { ...otlpSpan({ id: 'big', op: 'chat', start: 0, end: 10 }), endTimeUnixNano: '9'.repeat(400) };
    const err = await collectError([`${JSON.stringify(span)}\n`]);
    expect(err.message).toMatch(/^line 1: span big \("chat"\)\.endTimeUnixNano must be a timestamp/);
    expect(err.message).not.toContain('Infinity');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('gen_ai.operation.name %j is an unknown operation with its warning', async (op) => {
    // A model call beside it, so that the trace has a step and becomes a record.
    const { results } = await collect([`${otlpLine([{ trace: 't', id: 'x', op, start: 0, end: 10 }, { trace: 't', id: 'y', parent: 'x', op: 'chat', start: 1, end: 9 }])}\n`]);
    expect(results[0]?.warnings.some((w) => w.includes(`unknown gen_ai.operation.name ${JSON.stringify(op)}`))).toBe(true);
  });

  it('a cycle of 100,000 spans gives a one-line error of a few hundred characters', { timeout: 60_000 }, async () => {
    const n = 100_000;
    const spans = Array.from({ length: n }, (_, i) => otlpSpan({ trace: 'cyc', id: `s${i}`, parent: `s${(i + 1) % n}`, op: 'chat', start: 0, end: 1 }));
    const line = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const err = await collectError([`${line}\n`]);
    expect(err.message).toContain('the links form a cycle');
    expect(err.message).toContain(`(${n} spans in all)`);
    expect(err.message.length).toBeLessThan(600);
    expect(err.message).not.toContain('\n');
  });
});

describe('never silently wrong (spec §7)', () => {
  const good = `${otlpLine(smallTrace('g'))}\n`;

  it('JSON that no format recognises is a warning naming the line, not a record', async () => {
    const { results, warnings } = await collect([good, '{"hello":"world","n":1}\n']);
    expect(results.map((r) => r.traceId)).toEqual(['g']);
    expect(warnings).toEqual([expect.stringMatching(/^line 2: a JSON object that no format recognises \(keys "hello", "n"\)/)]);
  });

  it('under strict, unrecognised JSON is an error', async () => {
    const err = await collectError([good, '{"hello":"world"}\n'], { strict: true });
    expect(err.message).toMatch(/^line 2 must be a trace span, run or spec §5 record under strict/);
  });

  it('an input in which nothing was recognised is an error', async () => {
    const err = await collectError(['{"a":1}\n{"b":2}\n']);
    expect(err.message).toContain('nothing in it was recognised, so no record was written');
  });

  it('a sub-agent with no recognised model call is a warning naming the trace; an error under strict', async () => {
    const spans = [
      { trace: 'w', id: 'llm', parent: 'root', op: 'chat', start: 0, end: 10 },
      { trace: 'w', id: 'sub', parent: 'root', op: 'invoke_agent', agent: 'silent', start: 11, end: 20 },
      { trace: 'w', id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: 30 },
    ];
    const { results } = await collect([`${otlpLine(spans)}\n`]);
    expect(results[0]?.warnings).toEqual([expect.stringContaining('trace w: sub-agent span sub ("silent") has no recognised model call, so it counts 0 steps')]);
    const err = await collectError([`${otlpLine(spans)}\n`], { strict: true });
    expect(err.message).toMatch(/^line 1: trace w must be a trace without warnings under strict/);
  });

  it('a spec §5 record is still read as one under auto', async () => {
    const { results, warnings } = await collect(['{"id":"r","stages":[{"main_steps":1}]}\n']);
    expect(results.map((r) => r.format)).toEqual(['parl']);
    expect(warnings).toEqual([]);
  });
});
