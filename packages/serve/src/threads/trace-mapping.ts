/**
 * Where a finished trace is mapped to its record and finding: a small one on the event loop (a
 * thread's round trip would cost more than the mapping), a large one on a labelling thread, so
 * that the event loop is never held for the mapping of a trace of megabytes (the independence
 * check reads every captured input and output). Its spans go to the thread serialised in slices
 * (span-slices.ts), with a turn of the event loop between slices.
 *
 * @module
 */
import { BodyQueueFullError } from '@parl/io';
import { traceToResult, type LiveIntakeOptions, type TraceResult, type TraceSpan } from '@parl/traces';
import { readWeight, serializeSlice, sliceEnds } from './span-slices.js';
import type { TraceMappingInput, TraceMappingOutput } from './thread-tasks.js';

/**
 * Traces lighter than this (span count × 40 + characters of captured content, see `readWeight`)
 * are mapped on the event loop: about a millisecond of work (docs/benchmarks.md).
 */
export const THREAD_MAPPING_WEIGHT = 16 * 1024;

/** The weight of a trace (see {@link THREAD_MAPPING_WEIGHT}). */
export function traceWeight(spans: readonly TraceSpan[]): number {
  let weight = 0;
  for (const span of spans) weight += readWeight(span);
  return weight;
}

/** Let the event loop serve what is waiting (I/O callbacks included) before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The spans as serialised slices (span-slices.ts), the event loop served between two. */
export async function serializeInSlices(spans: readonly TraceSpan[]): Promise<{ slices: Uint8Array[]; bytes: number }> {
  const slices: Uint8Array[] = [];
  let bytes = 0;
  let from = 0;
  for (const to of sliceEnds(spans)) {
    if (from > 0) await yieldToEventLoop();
    const slice = serializeSlice(spans, from, to);
    slices.push(slice);
    bytes += slice.byteLength;
    from = to;
  }
  return { slices, bytes };
}

/**
 * Runs `mapTraceTask` (thread-tasks.ts) on a thread (see `RecordsLabeller.call`); rejects with
 * `BodyQueueFullError` (from `@parl/io`) when the threads' queue is full.
 */
export type ThreadMapper = (input: TraceMappingInput, transfer: ArrayBuffer[], bytes: number) => Promise<TraceMappingOutput>;

/** How long (ms) a trace waits before it asks a full queue of the threads again. */
const QUEUE_FULL_WAIT_MS = 20;

/** An error whose message is that of the `TraceInputError` a thread met mapping a trace. */
class TraceMappingError extends Error {}

/** Where traces were mapped, for the metrics: `event-loop`, `thread`, or `wait` (the threads' queue was full; asked again). */
export type MappingEvent = 'event-loop' | 'thread' | 'wait';

/**
 * The intake's `mapTrace`: `traceToResult` here for a light trace, on a thread (`threadMapper()`,
 * when it gives one) for a heavy one. The intake maps one trace at a time, so at most one trace's
 * slices are held or queued for the threads; when their queue is full (bodies waiting), the trace
 * waits {@link QUEUE_FULL_WAIT_MS} and asks again rather than being mapped on the event loop.
 */
export function traceMapper(threadMapper: () => ThreadMapper | undefined, onEvent: (event: MappingEvent) => void = () => undefined): NonNullable<LiveIntakeOptions['mapTrace']> {
  return (traceId, spans, options): TraceResult | Promise<TraceResult> => {
    const onThread = threadMapper();
    if (onThread === undefined || traceWeight(spans) < THREAD_MAPPING_WEIGHT) {
      onEvent('event-loop');
      return traceToResult(traceId, spans, options);
    }
    return (async () => {
      for (;;) {
        const { slices, bytes } = await serializeInSlices(spans);
        let out: TraceMappingOutput;
        try {
          out = await onThread({ traceId, slices, options }, slices.map((s) => s.buffer as ArrayBuffer), bytes);
        } catch (err) {
          if (!(err instanceof BodyQueueFullError)) throw err;
          onEvent('wait');
          await new Promise((resolve) => setTimeout(resolve, QUEUE_FULL_WAIT_MS));
          continue;
        }
        onEvent('thread');
        if ('error' in out) throw new TraceMappingError(out.error);
        return out.result;
      }
    })();
  };
}
