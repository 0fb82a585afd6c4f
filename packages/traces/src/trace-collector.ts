/**
 * Grouping a stream of spans by trace id and deciding when a trace is complete.
 *
 * Ordering assumption (`ordering: 'streamed'`): a trace is complete once its root span has
 * arrived and then a span of another trace arrives. This holds for exporters that write spans as
 * they end (OpenTelemetry SDK and collector, OpenAI Agents SDK: the root ends last), even when
 * traces interleave, and for any input that keeps each trace's spans together. A span that arrives
 * for an already completed trace breaks the assumption and is reported. `ordering: 'unordered'`
 * holds every trace until the input ends.
 *
 * @module
 */
import { TraceInputError } from './errors.js';
import type { TraceOrdering } from './options.js';
import { spanLabel, type TraceSpan } from './span.js';

/** A trace ready to be mapped, or one that was poisoned by a malformed span. */
export interface CollectedTrace {
  /** The trace id. */
  readonly traceId: string;
  /** Its spans in arrival order (empty when poisoned). */
  readonly spans: readonly TraceSpan[];
  /** The first malformed-span error of the trace, when there was one. */
  readonly poisoned: TraceInputError | undefined;
}

interface OpenTrace {
  spans: TraceSpan[];
  rooted: boolean;
  poisoned: TraceInputError | undefined;
}

/** Collects spans per trace and hands back the traces that are complete. */
export class TraceCollector {
  private readonly open = new Map<string, OpenTrace>();
  private readonly rooted = new Set<string>();
  private readonly done = new Set<string>();

  /** @param ordering - see {@link TraceOptions.ordering} */
  constructor(private readonly ordering: TraceOrdering) {}

  /** Number of traces still open (for memory checks and tests). */
  get openTraces(): number {
    return this.open.size;
  }

  /**
   * Add a span; returns the traces it completes (never the span's own).
   *
   * @throws {@link TraceInputError} when the span belongs to a trace already completed
   */
  add(span: TraceSpan): CollectedTrace[] {
    const late = this.lateError(span.traceId, span);
    if (late !== undefined) throw late;
    const completed = this.completeOthers(span.traceId);
    const trace = this.traceOf(span.traceId);
    if (trace.poisoned === undefined) trace.spans.push(span);
    if (span.parentId === undefined && !trace.rooted) {
      trace.rooted = true;
      this.rooted.add(span.traceId);
    }
    return completed;
  }

  /**
   * Mark a trace as malformed: its spans are dropped, and it comes back once complete with the
   * error. Returns the traces this completes, as {@link TraceCollector.add} does.
   */
  poison(traceId: string, error: TraceInputError): CollectedTrace[] {
    if (this.done.has(traceId)) return [];
    const completed = this.completeOthers(traceId);
    const trace = this.traceOf(traceId);
    if (trace.poisoned === undefined) {
      trace.poisoned = error;
      trace.spans = [];
    }
    return completed;
  }

  /** Every trace still open, in order of first arrival; the collector is empty afterwards. */
  drain(): CollectedTrace[] {
    const out = [...this.open.keys()].map((id) => this.complete(id));
    return out;
  }

  private lateError(traceId: string, span: TraceSpan): TraceInputError | undefined {
    if (!this.done.has(traceId)) return undefined;
    return new TraceInputError(
      spanLabel(span),
      traceId,
      `in a trace that is still open, but trace ${traceId} was already complete (its root had arrived and another trace followed); keep each trace's spans together or root-last, or use ordering "unordered"`,
      span.location,
      { traceId, spanId: span.spanId },
    );
  }

  private traceOf(traceId: string): OpenTrace {
    let trace = this.open.get(traceId);
    if (trace === undefined) {
      trace = { spans: [], rooted: false, poisoned: undefined };
      this.open.set(traceId, trace);
    }
    return trace;
  }

  private completeOthers(traceId: string): CollectedTrace[] {
    if (this.ordering === 'unordered' || this.rooted.size === 0) return [];
    if (this.rooted.size === 1 && this.rooted.has(traceId)) return [];
    const ids = [...this.rooted].filter((id) => id !== traceId);
    return ids.map((id) => this.complete(id));
  }

  private complete(traceId: string): CollectedTrace {
    const trace = this.open.get(traceId) as OpenTrace;
    this.open.delete(traceId);
    this.rooted.delete(traceId);
    this.done.add(traceId);
    return { traceId, spans: trace.spans, poisoned: trace.poisoned };
  }
}
