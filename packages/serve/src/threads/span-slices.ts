/**
 * Spans (and the errors of spans that could not be read) as `v8.serialize`d slices, each about a
 * millisecond of work to write or read: how spans cross between the event loop and a labelling
 * thread without either side holding its loop for a whole large trace or request. A span that
 * could not be read (a `TraceInputError`) crosses as its message and ids, and is made a
 * `TraceInputError` again on arrival, as the trace assembler tells them apart by class.
 *
 * @module
 */
import { TraceInputError, type SpanReadResult, type TraceSpan } from '@parl/traces';
import { deserialize, serialize } from 'node:v8';

/** A span's weight beside its captured content: its mapping costs about what this many characters of content cost. */
export const SPAN_WEIGHT = 40;

/** Weight of one slice (see {@link readWeight}): about a millisecond to serialise or read back. */
const SLICE_WEIGHT = 256 * 1024;

/** An unreadable span as it crosses. */
interface CrossingError {
  readonly unreadable: { readonly message: string; readonly traceId: string | undefined; readonly spanId: string | undefined };
}

/** How heavy a read span is to map and to serialise: {@link SPAN_WEIGHT} plus its captured content and names. */
export function readWeight(read: SpanReadResult): number {
  if (read instanceof TraceInputError) return SPAN_WEIGHT + read.message.length;
  return SPAN_WEIGHT + (read.input?.length ?? 0) + (read.output?.length ?? 0) + read.name.length + read.location.length;
}

/** Where each slice of `reads` ends: slices of about {@link SLICE_WEIGHT}, at least one read each. */
export function sliceEnds(reads: readonly SpanReadResult[]): number[] {
  const ends: number[] = [];
  for (let from = 0; from < reads.length; ) {
    let to = from;
    let weight = 0;
    while (to < reads.length && (to === from || weight < SLICE_WEIGHT)) weight += readWeight(reads[to++] as SpanReadResult);
    ends.push(to);
    from = to;
  }
  return ends;
}

/** `reads[from, to)` serialised, in an array buffer of its own (so that it can be moved to another thread). */
export function serializeSlice(reads: readonly SpanReadResult[], from: number, to: number): Uint8Array {
  const crossing: (TraceSpan | CrossingError)[] = [];
  for (let i = from; i < to; i++) {
    const read = reads[i] as SpanReadResult;
    crossing.push(read instanceof TraceInputError ? { unreadable: { message: read.message, traceId: read.traceId, spanId: read.spanId } } : read);
  }
  const buffer = serialize(crossing);
  return buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength ? new Uint8Array(buffer.buffer, 0, buffer.byteLength) : new Uint8Array(buffer);
}

/** A crossed `TraceInputError` made one again, with the message it had. */
function revived(error: CrossingError['unreadable']): TraceInputError {
  const err = new TraceInputError('span', undefined, 'a readable span', undefined, { traceId: error.traceId, spanId: error.spanId });
  Object.defineProperty(err, 'message', { value: error.message, writable: true, configurable: true, enumerable: false });
  return err;
}

/** The reads of one slice made by {@link serializeSlice}. */
export function deserializeSlice(slice: Uint8Array): SpanReadResult[] {
  const crossed = deserialize(slice) as (TraceSpan | CrossingError)[];
  return crossed.map((read) => ('unreadable' in read ? revived(read.unreadable) : read));
}
