/**
 * LiveTraceIntake with a `mapTrace` of its own (what `parl serve` uses to map large traces on a
 * worker thread): results that come later are handed on in order, one trace at a time; a rejected
 * mapping drops the trace as unmappable; a result that comes after close is ignored.
 */
import { describe, expect, it } from 'vitest';
import { LiveTraceIntake, readExportRequest, traceToResult, type LiveDropReason, type LiveIntakeOptions, type TraceResult } from '../src/index.js';
import { otlpSpan, smallTrace } from './support/hand-spans.js';

function request(spans: Record<string, unknown>[]) {
  return readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, 'parl.rollout_id');
}

function setup(mapTrace: NonNullable<LiveIntakeOptions['mapTrace']>) {
  const episodes: string[] = [];
  const dropped: [string, LiveDropReason][] = [];
  const warnings: string[] = [];
  let resolveIdle: () => void = () => undefined;
  const intake = new LiveTraceIntake({
    quietPeriodMs: 0,
    onEpisode: (r) => {
      episodes.push(r.traceId);
      resolveIdle();
    },
    onDropped: (id, why) => {
      dropped.push([id, why]);
      resolveIdle();
    },
    onWarning: (w) => warnings.push(w),
    mapTrace,
  });
  const settled = (n: number): Promise<void> =>
    new Promise((resolve) => {
      resolveIdle = () => {
        if (episodes.length + dropped.length >= n) resolve();
      };
      resolveIdle();
    });
  return { intake, episodes, dropped, warnings, settled };
}

const traceSpans = (id: string) => smallTrace(id).map((s) => otlpSpan(s) as Record<string, unknown>);

describe('LiveTraceIntake with mapTrace', () => {
  it('hands on results that come later, in the order the traces finished, one mapping at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const { intake, episodes, settled } = setup(async (traceId, spans, options) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // the first trace takes longest: order still follows finishing
      await new Promise((resolve) => setTimeout(resolve, traceId === 'a' ? 30 : 1));
      inFlight--;
      return traceToResult(traceId, spans, options);
    });
    intake.add(request([...traceSpans('a'), ...traceSpans('b'), ...traceSpans('c')]));
    await settled(3);
    expect(episodes).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    intake.close('test over');
  });

  it('drops a trace whose mapping is rejected, as unmappable with the message, and goes on with the next', async () => {
    const { intake, episodes, dropped, warnings, settled } = setup((traceId, spans, options) => (traceId === 'bad' ? Promise.reject(new Error('the thread could not map it')) : traceToResult(traceId, spans, options)));
    intake.add(request([...traceSpans('bad'), ...traceSpans('good')]));
    await settled(2);
    expect(dropped).toEqual([['bad', 'unmappable']]);
    expect(warnings.some((w) => w.includes('the thread could not map it'))).toBe(true);
    expect(episodes).toEqual(['good']);
    intake.close('test over');
  });

  it('ignores a result that comes after close, and does not drop the trace taken for mapping again', async () => {
    let release: (r: TraceResult) => void = () => undefined;
    const spansOf = traceSpans('late');
    const { intake, episodes, dropped } = setup((traceId, spans, options) => new Promise<TraceResult>((resolve) => (release = () => resolve(traceToResult(traceId, spans, options)))));
    intake.add(request(spansOf));
    await new Promise((resolve) => setImmediate(resolve));
    intake.close('test over');
    release(undefined as never);
    await new Promise((resolve) => setImmediate(resolve));
    expect(episodes).toEqual([]);
    // taken for mapping already: not dropped again at close (its spans are the caller's to keep)
    expect(dropped).toEqual([]);
  });

  it('finishes no trace while held (spans of one request added in parts), and finishes it with all its spans once released', async () => {
    const given: number[] = [];
    const { intake, episodes, settled } = setup((traceId, spans, options) => {
      given.push(spans.length);
      return traceToResult(traceId, spans, options);
    });
    const [llm, subllm, sub, root] = traceSpans('parts');
    const release = intake.hold();
    intake.add(request([root as Record<string, unknown>, llm as Record<string, unknown>]));
    intake.sweep();
    await new Promise((resolve) => setImmediate(resolve));
    expect(episodes).toEqual([]);
    intake.add(request([subllm as Record<string, unknown>, sub as Record<string, unknown>]));
    release();
    await settled(1);
    expect(episodes).toEqual(['parts']);
    expect(given).toEqual([4]);
    intake.close('test over');
  });
});
