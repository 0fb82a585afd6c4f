/**
 * The in-process trace buffer shared by the live processors: spans per open trace, each trace
 * mapped (exactly as `readTraces` maps it) when it completes, then dropped. Memory is bounded by
 * {@link LiveTraceOptions.maxOpenTraces}, {@link LiveTraceOptions.maxSpansPerTrace},
 * {@link LiveTraceOptions.maxOpenSpans} and {@link LiveTraceOptions.timeoutMs}.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { TraceInputError } from '../errors.js';
import type { SpanReadResult } from '../formats/span-fields.js';
import type { TraceSpan } from '../span.js';
import { traceToResult, type TraceResult } from '../trace-result.js';
import { checkLiveOptions, type LiveBounds, type LiveDropReason, type LiveTraceOptions } from './live-options.js';

/** What is held for one open trace: its spans and when they came (the one per-trace state). */
interface OpenTrace {
  readonly firstSeenMs: number;
  /** When its last span came. */
  lastSpanMs: number;
  /** Whether its root span (a span without parent) has come. */
  rootEnded: boolean;
  /** The rollout id a span of it named. */
  rollout: string | undefined;
  spans: TraceSpan[];
  error: TraceInputError | undefined;
  /** Dropped over a span bound: its later spans are discarded until it ends or times out. */
  discarded: boolean;
}

/** Collects the spans of open traces and turns each completed trace into its record and finding. */
export class LiveTraceAssembler {
  private readonly open = new Map<string, OpenTrace>();
  private readonly bounds: LiveBounds;
  private spansHeld = 0;
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
    this.bounds = checkLiveOptions(options);
  }

  /** Traces currently held. */
  get openTraces(): number {
    return this.open.size;
  }

  /** Spans currently held over all open traces. */
  get openSpans(): number {
    return this.spansHeld;
  }

  /**
   * Add one read span (or the error reading it) to its trace.
   *
   * @param rollout - the rollout id the span (or its resource) named, kept with the trace
   */
  add(read: SpanReadResult, rollout?: string): void {
    const now = this.now();
    if (now >= this.nextExpiryMs) this.expire();
    const traceId = read.traceId;
    if (traceId === undefined) {
      this.warn(`a span could not be read and names no trace: ${read instanceof TraceInputError ? read.message : read.spanId}`);
      return;
    }
    let trace = this.open.get(traceId);
    if (trace === undefined) {
      if (this.open.size >= this.bounds.maxOpenTraces) this.dropOldest('capacity', `more than ${this.bounds.maxOpenTraces} traces open at once (maxOpenTraces)`);
      trace = { firstSeenMs: now, lastSpanMs: now, rootEnded: false, rollout, spans: [], error: undefined, discarded: false };
      this.open.set(traceId, trace);
      if (this.nextExpiryMs === Number.POSITIVE_INFINITY) this.nextExpiryMs = trace.firstSeenMs + this.timeoutMs;
    }
    trace.lastSpanMs = now;
    trace.rollout ??= rollout;
    if (read instanceof TraceInputError) {
      trace.error ??= read;
      return;
    }
    if (read.parentId === undefined) trace.rootEnded = true;
    if (trace.discarded) return;
    if (trace.spans.length >= this.bounds.maxSpansPerTrace) {
      this.discard(traceId, trace, 'trace-spans', `more than ${this.bounds.maxSpansPerTrace} spans in one trace (maxSpansPerTrace); its later spans are discarded`);
      return;
    }
    while (this.spansHeld >= this.bounds.maxOpenSpans) {
      const oldest = this.oldestHolding(traceId);
      if (oldest === undefined) {
        this.discard(traceId, trace, 'open-spans', `more than ${this.bounds.maxOpenSpans} spans held over all open traces (maxOpenSpans)`);
        return;
      }
      this.discard(oldest[0], oldest[1], 'open-spans', `more than ${this.bounds.maxOpenSpans} spans held over all open traces (maxOpenSpans); the oldest open trace goes first`);
    }
    trace.spans.push(read);
    this.spansHeld += 1;
  }

  /**
   * The traces whose root span has come and that got no span for `quietPeriodMs`, oldest first:
   * ready to {@link LiveTraceAssembler.complete}. (The live processors complete a trace when its
   * root ends; a receiver of exported spans, where children may arrive after their root, waits.)
   */
  quietTraces(quietPeriodMs: number): string[] {
    const limit = this.now() - quietPeriodMs;
    const ready: string[] = [];
    for (const [traceId, trace] of this.open) if (trace.rootEnded && trace.lastSpanMs <= limit) ready.push(traceId);
    return ready;
  }

  /** The rollout id held for an open trace. */
  rolloutOf(traceId: string): string | undefined {
    return this.open.get(traceId)?.rollout;
  }

  private get timeoutMs(): number {
    return this.bounds.timeoutMs;
  }

  /** The trace has ended: map it, hand the result on, and drop it. Unknown or empty traces are ignored. */
  complete(traceId: string): TraceResult | undefined {
    const spans = this.take(traceId);
    if (spans === undefined) return undefined;
    let result: TraceResult;
    try {
      result = traceToResult(traceId, spans, this.mappingOptions);
    } catch (err) {
      if (!(err instanceof TraceInputError)) throw err;
      this.failed(traceId, err.message);
      return undefined;
    }
    return this.mapped(result);
  }

  /**
   * The trace has ended: forget it and hand back its spans, to be mapped (with
   * {@link LiveTraceAssembler.mappingOptions}, as `traceToResult` maps them) elsewhere — on a
   * worker thread, say — and then given to {@link LiveTraceAssembler.mapped} or
   * {@link LiveTraceAssembler.failed}. Undefined for an unknown, empty, discarded or unreadable
   * trace (the last dropped with a warning, as {@link LiveTraceAssembler.complete} drops it).
   */
  take(traceId: string): readonly TraceSpan[] | undefined {
    const trace = this.open.get(traceId);
    if (trace !== undefined) this.forget(traceId, trace);
    if (trace?.discarded === true) return undefined;
    if (trace === undefined || trace.spans.length === 0) {
      if (trace?.error !== undefined) this.drop(traceId, 'unmappable', trace.error.message);
      return undefined;
    }
    if (trace.error !== undefined) {
      this.drop(traceId, 'unmappable', trace.error.message);
      return undefined;
    }
    return trace.spans;
  }

  /** The mapping options of `traceToResult` (`grouping`, `stepsFrom`, `clock`, `strict`) these traces get. */
  get mappingOptions(): Pick<LiveTraceOptions, 'grouping' | 'stepsFrom' | 'clock' | 'strict'> {
    return {
      ...(this.options.grouping === undefined ? {} : { grouping: this.options.grouping }),
      ...(this.options.stepsFrom === undefined ? {} : { stepsFrom: this.options.stepsFrom }),
      ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
      ...(this.options.strict === undefined ? {} : { strict: this.options.strict }),
    };
  }

  /** A taken trace's result: its warnings given, its record and finding appended and handed on. */
  mapped(result: TraceResult): TraceResult {
    const traceId = result.traceId;
    for (const w of result.warnings) this.warn(w.startsWith(`trace ${traceId}`) ? w : `trace ${traceId}: ${w}`);
    if (this.options.recordsFile !== undefined) appendFileSync(this.options.recordsFile, `${JSON.stringify(result.record)}\n`);
    if (this.options.findingsFile !== undefined) appendFileSync(this.options.findingsFile, `${JSON.stringify(result.finding)}\n`);
    this.options.onResult?.(result);
    return result;
  }

  /** A taken trace that could not be mapped (the `TraceInputError`'s message): dropped with a warning. */
  failed(traceId: string, message: string): void {
    this.drop(traceId, 'unmappable', message);
  }

  /** Drop every open trace (at shutdown), with a warning each. */
  dropAll(why: string): void {
    for (const [traceId, trace] of [...this.open]) {
      this.forget(traceId, trace);
      if (!trace.discarded) this.drop(traceId, 'shutdown', why);
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
      this.forget(traceId, trace);
      if (trace.discarded) continue;
      dropped += 1;
      this.drop(traceId, 'timeout', `still open ${this.timeoutMs} ms after its first span (its root never ended?)`);
    }
    return dropped;
  }

  private dropOldest(reason: LiveDropReason, why: string): void {
    const oldest = this.open.entries().next();
    if (oldest.done === true) return;
    const [traceId, trace] = oldest.value;
    this.forget(traceId, trace);
    if (!trace.discarded) this.drop(traceId, reason, why);
  }

  /** The oldest open trace other than `except` that holds spans. */
  private oldestHolding(except: string): [string, OpenTrace] | undefined {
    for (const entry of this.open) if (entry[0] !== except && entry[1].spans.length > 0) return entry;
    return undefined;
  }

  /** Give back a trace's spans, keep it as discarded (its later spans are not held), and say so. */
  private discard(traceId: string, trace: OpenTrace, reason: LiveDropReason, why: string): void {
    this.spansHeld -= trace.spans.length;
    trace.spans = [];
    trace.discarded = true;
    this.drop(traceId, reason, why);
  }

  private forget(traceId: string, trace: OpenTrace): void {
    this.open.delete(traceId);
    this.spansHeld -= trace.spans.length;
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
