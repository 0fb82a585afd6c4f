import { describe, expect, it } from 'vitest';
import { ParlInputError } from '@parl/core';
import { TraceInputError } from '../src/index.js';
import { collect, collectError } from './support/collect.js';
import { otlpLine, smallTrace, type HandSpan } from './support/hand-spans.js';

const good = otlpLine(smallTrace('good'));

/** The error in error mode, and the outcome in skip mode (the good trace still comes out). */
async function bothModes(lines: readonly string[]) {
  const text = lines.join('\n') + '\n';
  const error = await collectError([text]);
  const skipped = await collect([text], { onMalformed: 'skip' });
  return { error, skipped };
}

describe('malformed traces', () => {
  it('a cycle in parent links names the span and the cycle', async () => {
    const cyclic: HandSpan[] = [
      { trace: 'cyc', id: 'a', parent: 'b', op: 'chat', start: 0, end: 10 },
      { trace: 'cyc', id: 'b', parent: 'a', op: 'invoke_agent', agent: 'loop', start: 0, end: 20 },
    ];
    const { error, skipped } = await bothModes([otlpLine(cyclic), good]);
    expect(error).toBeInstanceOf(TraceInputError);
    expect(error.message).toMatch(/span (a|b) .*parentSpanId must be .*cycle (a → b → a|b → a → b)/);
    expect((error as TraceInputError).traceId).toBe('cyc');
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings.join('\n')).toMatch(/skipped trace cyc: .*cycle/);
  });

  it('a missing parent names the span and the parent id', async () => {
    const orphan: HandSpan[] = [
      { trace: 'orph', id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: 50 },
      { trace: 'orph', id: 'lost', parent: 'nowhere', op: 'chat', start: 0, end: 10 },
    ];
    const { error, skipped } = await bothModes([otlpLine(orphan), good]);
    expect(error.message).toContain('line 1: span lost ("chat").parentSpanId must be the id of a span in trace orph (the parent is missing');
    expect(error.message).toContain('got "nowhere"');
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings).toHaveLength(1);
  });

  it('a span that ends before it starts names the span and both times', async () => {
    const backwards: HandSpan[] = [{ trace: 'back', id: 'r', op: 'invoke_agent', agent: 'boss', start: 100, end: 50 }];
    const { error, skipped } = await bothModes([otlpLine(backwards), good]);
    expect(error).toBeInstanceOf(TraceInputError);
    expect(error.message).toMatch(/^line 1: span r \("boss"\)\.endTimeUnixNano must be at or after the span's start \(\d+\).*got "\d+"$/);
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings[0]).toMatch(/skipped trace back/);
  });

  it('unknown attributes and operation names are warnings on the trace, never errors', async () => {
    const odd = smallTrace('odd').map((s) =>
      s.id === 'odd-llm'
        ? { ...s, extraAttributes: [{ key: 'x.weird', value: { fancyValue: 3 } }, { nokey: true }] }
        : s.id === 'odd-sub'
          ? { ...s, op: 'summon_demon' }
          : s,
    );
    const { results } = await collect([otlpLine(odd)]);
    expect(results).toHaveLength(1);
    const warnings = results[0]?.warnings.join('\n') ?? '';
    expect(warnings).toContain('attribute "x.weird" has a value of unknown type (fancyValue); ignored');
    expect(warnings).toContain('an attribute without a string key was ignored');
    expect(warnings).toContain('unknown gen_ai.operation.name "summon_demon"');
    // The span with the unknown operation is no agent: no sub-agent is left, and the LLM call under
    // it is the orchestrator's own (a second main step).
    expect(results[0]?.record.stages).toEqual([
      { main_steps: 1, sub_steps: [] },
      { main_steps: 1, sub_steps: [] },
    ]);
  });

  it('a truncated JSONL file names the last line; skipping keeps the traces before it', async () => {
    const text = `${good}\n${otlpLine(smallTrace('cut')).slice(0, 120)}`;
    const error = await collectError([text]);
    expect(error).toBeInstanceOf(TraceInputError);
    expect(error.message).toMatch(/^line 2 must be one complete JSON value per line .*truncated/);
    const skipped = await collect([text], { onMalformed: 'skip' });
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings[0]).toMatch(/^skipped line 2: /);
  });

  it('a JSONL file whose first line is broken is still read as JSONL, naming line 1', async () => {
    const text = `${otlpLine(smallTrace('cut')).slice(0, 90)}\n${good}\n`;
    const error = await collectError([text]);
    expect(error.message).toMatch(/^line 1 must be one complete JSON value per line/);
    const skipped = await collect([text], { onMalformed: 'skip' });
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings).toHaveLength(1);
  });

  it('a document of one element per line is still read as a document', async () => {
    const text = `[\n${JSON.stringify(JSON.parse(good))}\n]\n`;
    const { results } = await collect([text]);
    expect(results.map((r) => r.traceId)).toEqual(['good']);
  });

  it('a truncated JSON document is an error; skipping keeps what was complete', async () => {
    const doc = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [...JSON.parse(good).resourceSpans[0].scopeSpans[0].spans, ...JSON.parse(otlpLine(smallTrace('cut'))).resourceSpans[0].scopeSpans[0].spans.slice(0, 2)] }] }] }, null, 1);
    const text = doc.slice(0, doc.length - 40);
    const error = await collectError([text]);
    expect(error.message).toMatch(/^document must be one complete JSON document/);
    const skipped = await collect([text], { onMalformed: 'skip' });
    expect(skipped.results.map((r) => r.traceId)).toEqual(['good']);
    expect(skipped.warnings.join('\n')).toMatch(/skipped the rest of the document/);
    expect(skipped.warnings.join('\n')).toMatch(/skipped trace cut: .*parent is missing/);
  });

  it('a span arriving after its trace was complete breaks the ordering assumption; unordered accepts it', async () => {
    const [llm, subllm, sub, root] = smallTrace('late');
    const lines = [otlpLine([llm as HandSpan, sub as HandSpan, root as HandSpan]), good, otlpLine([subllm as HandSpan])];
    const error = await collectError([lines.join('\n')]);
    expect(error.message).toMatch(/^line 3: span late-subllm .*already complete.*ordering "unordered"/);
    const unordered = await collect([lines.join('\n')], { ordering: 'unordered' });
    expect(unordered.results.map((r) => r.traceId)).toEqual(['late', 'good']);
    expect(unordered.results[0]?.record.stages).toEqual([{ main_steps: 1, sub_steps: [{ steps: 1, finished: true }] }]);
  });

  it('a duplicate span id names both places', async () => {
    const dup = [...smallTrace('dup'), { trace: 'dup', id: 'dup-llm', parent: 'dup-root', op: 'chat', start: 1, end: 2 }];
    const error = await collectError([otlpLine(dup)]);
    expect(error.message).toMatch(/span dup-llm .*\.id must be unique within trace dup, but line 1 has a span with the same id/);
  });

  it('a span that never ended, a missing id and a non-object are named', async () => {
    const noEnd = JSON.stringify({ object: 'trace.span', id: 'span_1', trace_id: 'trace_1', parent_id: null, started_at: '2025-01-01T00:00:00Z', ended_at: null, span_data: { type: 'agent', name: 'boss' }, error: null });
    expect((await collectError([noEnd])).message).toBe(
      'line 1: span span_1 ("boss").ended_at must be a timestamp (the span never ended: the trace is incomplete), got null',
    );
    const noId = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 't', name: 'x', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }] });
    expect((await collectError([noId])).message).toBe('line 1: span.spanId must be a non-empty id string, got undefined (missing)');
    expect((await collectError(['[1, 2]\n'])).message).toMatch(/^line 1: \(value\) must be a JSON object/);
  });

  it('a format forced by the caller rejects other formats by name', async () => {
    const error = await collectError([good], { format: 'langsmith' });
    expect(error.message).toMatch(/^line 1: \(value\) must be a LangSmith run/);
  });

  it('bad options name the option and the allowed values', async () => {
    const error = await collectError([good], { grouping: 'sideways' as never });
    expect(error).toBeInstanceOf(ParlInputError);
    expect(error.message).toBe('options.grouping must be one of children, overlap, got "sideways"');
  });

  it('skip mode without onWarning still reports through process warnings', async () => {
    const seen: string[] = [];
    const listener = (w: Error) => seen.push(w.message);
    process.on('warning', listener);
    try {
      const { readTraces } = await import('../src/index.js');
      const out = [];
      for await (const r of readTraces([`${good}\nnot json\n`], { onMalformed: 'skip' })) out.push(r);
      expect(out).toHaveLength(1);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', listener);
    }
    expect(seen.join('\n')).toMatch(/skipped line 2/);
  });
});
