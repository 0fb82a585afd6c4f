/**
 * The in-process trace buffer shared by the live processors: spans per open trace, each trace
 * mapped (exactly as `readTraces` maps it) when it completes, then dropped. Memory is bounded by
 * {@link LiveTraceOptions.maxOpenTraces} and {@link LiveTraceOptions.timeoutMs}.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { TraceInputError } from '../errors.js';
import type { SpanReadResult } from '../formats/span-fields.js';
import type { TraceSpan } from '../span.js';
import { traceToResult, type TraceResult } from '../trace-result.js';
import { checkLiveOptions, type LiveDropReason, type LiveTraceOptions } from './live-options.js';

interface OpenTrace {
  readonly firstSeenMs: number;
  readonly spans: TraceSpan[];
  error: TraceInputError | undefined;
}

/** Collects the spans of open traces and turns each completed trace into its record and finding. */
export class LiveTraceAssembler {
  private readonly open = new Map<string, OpenTrace>();
  private readonly timeoutMs: number;
  private readonly maxOpenTraces: number;
  /**
   * No trace times out before this (ms): the first open trace's deadline when last looked at. A
   * span arriving earlier does not look for stale traces; walking the open traces from the front
   * on every span had cost more per span as finished traces left deleted entries at the front.
   */
  private nextExpiryMs = Number.POSITIVE_INFINITY;

  /**
   * @param options - see {@link LiveTraceOptions}
   * @param now - the clock (ms), replaceable in tests
   */
  constructor(
    private readonly options: LiveTraceOptions,
    private readonly now: () => number = Date.now,
  ) {
    ({ timeoutMs: this.timeoutMs, maxOpenTraces: this.maxOpenTraces } = checkLiveOptions(options));
  }

  /** Traces currently held. */
  get openTraces(): number {
    return this.open.size;
  }

  /** Add one read span (or the error reading it) to its trace. */
  add(read: SpanReadResult): void {
    if (this.now() >= this.nextExpiryMs) this.expire();
    const traceId = read.traceId;
    if (traceId === undefined) {
      this.warn(`a span could not be read and names no trace: ${read instanceof TraceInputError ? read.message : read.spanId}`);
      return;
    }
    let trace = this.open.get(traceId);
    if (trace === undefined) {
      if (this.open.size >= this.maxOpenTraces) this.dropOldest();
      trace = { firstSeenMs: this.now(), spans: [], error: undefined };
      this.open.set(traceId, trace);
      if (this.nextExpiryMs === Number.POSITIVE_INFINITY) this.nextExpiryMs = trace.firstSeenMs + this.timeoutMs;
    }
    if (read instanceof TraceInputError) trace.error ??= read;
    else trace.spans.push(read);
  }

  /** The trace has ended: map it, hand the result on, and drop it. Unknown or empty traces are ignored. */
  complete(traceId: string): TraceResult | undefined {
    const trace = this.open.get(traceId);
    this.open.delete(traceId);
    if (trace === undefined || trace.spans.length === 0) {
      if (trace?.error !== undefined) this.drop(traceId, 'unmappable', trace.error.message);
      return undefined;
    }
    if (trace.error !== undefined) {
      this.drop(traceId, 'unmappable', trace.error.message);
      return undefined;
    }
    let result: TraceResult;
    try {
      result = traceToResult(traceId, trace.spans, {
        ...(this.options.grouping === undefined ? {} : { grouping: this.options.grouping }),
        ...(this.options.stepsFrom === undefined ? {} : { stepsFrom: this.options.stepsFrom }),
        ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
        ...(this.options.strict === undefined ? {} : { strict: this.options.strict }),
      });
    } catch (err) {
      if (!(err instanceof TraceInputError)) throw err;
      this.drop(traceId, 'unmappable', err.message);
      return undefined;
    }
    for (const w of result.warnings) this.warn(w.startsWith(`trace ${traceId}`) ? w : `trace ${traceId}: ${w}`);
    if (this.options.recordsFile !== undefined) appendFileSync(this.options.recordsFile, `${JSON.stringify(result.record)}\n`);
    if (this.options.findingsFile !== undefined) appendFileSync(this.options.findingsFile, `${JSON.stringify(result.finding)}\n`);
    this.options.onResult?.(result);
    return result;
  }

  /** Drop every open trace (at shutdown), with a warning each. */
  dropAll(why: string): void {
    for (const traceId of [...this.open.keys()]) {
      this.open.delete(traceId);
      this.drop(traceId, 'shutdown', why);
    }
  }

  /**
   * Drop the traces still open {@link LiveTraceOptions.timeoutMs} after their first span (with a
   * warning each). {@link LiveTraceAssembler.add} does this too; call it on a timer when spans
   * may stop arriving, so memory is given back without new spans.
   *
   * @returns how many traces were dropped
   */
  expire(): number {
    const limit = this.now() - this.timeoutMs;
    let dropped = 0;
    this.nextExpiryMs = Number.POSITIVE_INFINITY;
    // Traces are held in order of their first span: the stale ones are at the front.
    for (const [traceId, trace] of this.open) {
      if (trace.firstSeenMs > limit) {
        this.nextExpiryMs = trace.firstSeenMs + this.timeoutMs;
        break;
      }
      this.open.delete(traceId);
      dropped += 1;
      this.drop(traceId, 'timeout', `still open ${this.timeoutMs} ms after its first span (its root never ended?)`);
    }
    return dropped;
  }

  private dropOldest(): void {
    const oldest = this.open.keys().next();
    if (oldest.done === true) return;
    this.open.delete(oldest.value);
    this.drop(oldest.value, 'capacity', `more than ${this.maxOpenTraces} traces open at once (maxOpenTraces)`);
  }

  private drop(traceId: string, reason: LiveDropReason, why: string): void {
    this.warn(`trace ${traceId} dropped: ${why}`);
    this.options.onDropped?.(traceId, reason);
  }

  private warn(message: string): void {
    if (this.options.onWarning !== undefined) this.options.onWarning(message);
    else process.emitWarning(message, { type: 'ParlTraceWarning' });
  }
}
