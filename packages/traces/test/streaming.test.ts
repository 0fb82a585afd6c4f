import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readTraces } from '../src/index.js';
import { otlpLine, otlpSpan, smallTrace } from './support/hand-spans.js';

describe('streaming, trace by trace', () => {
  it('yields each trace before the rest of a JSONL input has been read', async () => {
    const total = 50;
    let pulled = 0;
    async function* lines() {
      for (let i = 0; i < total; i++) {
        pulled++;
        yield `${otlpLine(smallTrace(`t${i}`))}\n`;
      }
    }
    const seenAt: number[] = [];
    for await (const r of readTraces(lines())) {
      seenAt.push(pulled);
      expect(r.record.stages).toEqual([{ main_steps: 1, sub_steps: [{ steps: 1, finished: true }] }]);
    }
    expect(seenAt).toHaveLength(total);
    // Trace k is complete once trace k+1 starts: it comes out after k+2 lines at the latest.
    seenAt.forEach((p, k) => expect(p).toBeLessThanOrEqual(Math.min(k + 2, total)));
  });

  it('streams the spans of one big OTLP JSON document without waiting for its end', async () => {
    const total = 40;
    const spans = Array.from({ length: total }, (_, i) => smallTrace(`d${i}`).map(otlpSpan)).flat();
    const doc = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] }, null, 2);
    const size = 512;
    let consumed = 0;
    async function* chunks() {
      for (let i = 0; i < doc.length; i += size) {
        consumed = i + size;
        yield Buffer.from(doc.slice(i, i + size));
      }
    }
    let firstAt = -1;
    let n = 0;
    for await (const r of readTraces(chunks())) {
      if (firstAt < 0) firstAt = consumed;
      expect(r.traceId).toBe(`d${n}`);
      n++;
    }
    expect(n).toBe(total);
    expect(firstAt).toBeLessThan(doc.length / 4);
  });

  it('reads a Node readable stream of bytes, with multi-byte characters split across chunks', async () => {
    const named = smallTrace('u').map((s) => (s.id === 'u-sub' ? { ...s, agent: 'исследователь 🔍' } : s));
    const bytes = Buffer.from(`${otlpLine(named)}\n`);
    const cut = bytes.indexOf(Buffer.from('🔍')) + 2;
    const stream = Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]);
    const out = [];
    for await (const r of readTraces(stream, { grouping: 'overlap' })) out.push(r);
    expect(out[0]?.finding.patterns).toEqual([]);
    expect(out[0]?.record.stages).toEqual([{ main_steps: 1, sub_steps: [{ steps: 1, finished: true }] }]);
  });

  it('rejects an input that is not a stream', async () => {
    const gen = readTraces('just a string' as never);
    await expect(gen.next()).rejects.toThrow('input must be an async iterable of strings or bytes, or a readable stream, got "just a string"');
  });
});
