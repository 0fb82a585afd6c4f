/**
 * Spans in, episodes out: OTLP spans are read and held per trace by `@parl/traces`'
 * {@link @parl/traces!LiveTraceAssembler}; a trace becomes an episode once its root span has
 * ended and no span of it came for the quiet period. Unfinished traces are evicted after a
 * timeout or beyond a cap (the assembler's bounds).
 *
 * @module
 */
import { LiveTraceAssembler, readOtlpSpan, TraceInputError, type LiveDropReason, type SpanReadResult, type TraceOptions, type TraceResult } from '@parl/traces';

/** How {@link TraceIntake} is set up. */
export interface TraceIntakeOptions {
  /** Quiet period (ms) after the root span ended. */
  readonly quietPeriodMs: number;
  /** Eviction timeout (ms) after a trace's first span. */
  readonly timeoutMs: number;
  /** Unfinished traces held at most. */
  readonly maxOpenTraces: number;
  /** How spans map to records. */
  readonly trace: Pick<TraceOptions, 'grouping' | 'stepsFrom' | 'clock'>;
  /** Called for each trace that became an episode, with its rollout id when a span named one. */
  readonly onEpisode: (result: TraceResult, rollout: string | undefined) => void;
  /** Called for each trace dropped unfinished or unmappable. */
  readonly onDropped: (traceId: string, reason: LiveDropReason) => void;
  /** Called with warnings. */
  readonly onWarning: (message: string) => void;
  /** The clock (ms). */
  readonly now?: () => number;
}

/** The spans of one OTLP export request, read. */
export interface ReadRequest {
  /** The spans as OTLP JSON (what the log keeps). */
  readonly spans: Record<string, unknown>[];
  /** Each span read (or why it could not be). */
  readonly reads: SpanReadResult[];
  /** Rollout ids by trace id. */
  readonly rollouts: Record<string, string>;
  /** Spans that could not be read, with the first reason. */
  readonly rejected: number;
  /** The first unreadable span's message. */
  readonly firstError: string | undefined;
}

function attributeValue(attributes: unknown, key: string): string | undefined {
  if (!Array.isArray(attributes)) return undefined;
  for (const kv of attributes as unknown[]) {
    if (typeof kv !== 'object' || kv === null || (kv as { key?: unknown }).key !== key) continue;
    const value = (kv as { value?: Record<string, unknown> }).value;
    const v = value?.['stringValue'] ?? value?.['intValue'];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}

/**
 * Read the spans of an OTLP/HTTP JSON export request (protobuf requests are turned into this
 * form first), noting each trace's rollout id from a span or resource attribute.
 *
 * @throws {@link @parl/traces!TraceInputError} when the request has no `resourceSpans` array
 */
export function readExportRequest(body: unknown, rolloutAttribute: string): ReadRequest {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { resourceSpans?: unknown }).resourceSpans)) {
    throw new TraceInputError('resourceSpans', typeof body === 'object' && body !== null ? (body as { resourceSpans?: unknown }).resourceSpans : body, 'an OTLP export request: an object with a resourceSpans array', 'the request');
  }
  const spans: Record<string, unknown>[] = [];
  const reads: SpanReadResult[] = [];
  const rollouts: Record<string, string> = {};
  let rejected = 0;
  let firstError: string | undefined;
  for (const rs of (body as { resourceSpans: unknown[] }).resourceSpans) {
    if (typeof rs !== 'object' || rs === null) continue;
    const resourceRollout = attributeValue((rs as { resource?: { attributes?: unknown } }).resource?.attributes, rolloutAttribute);
    const scopes = (rs as { scopeSpans?: unknown }).scopeSpans;
    if (!Array.isArray(scopes)) continue;
    for (const sc of scopes as unknown[]) {
      const list = typeof sc === 'object' && sc !== null ? (sc as { spans?: unknown }).spans : undefined;
      if (!Array.isArray(list)) continue;
      for (const span of list as unknown[]) {
        const read = readOtlpSpan(span, `span ${spans.length + 1}`);
        if (read instanceof TraceInputError) {
          rejected += 1;
          firstError ??= read.message;
        }
        reads.push(read);
        spans.push(span as Record<string, unknown>);
        const traceId = read.traceId;
        if (traceId !== undefined && rollouts[traceId] === undefined) {
          const rollout = attributeValue((span as { attributes?: unknown } | null)?.attributes, rolloutAttribute) ?? resourceRollout;
          if (rollout !== undefined) rollouts[traceId] = rollout;
        }
      }
    }
  }
  return { spans, reads, rollouts, rejected, firstError };
}

interface TraceState {
  lastSpanMs: number;
  rootEnded: boolean;
  rollout: string | undefined;
}

/** Open traces, turned into episodes when finished. */
export class TraceIntake {
  private readonly assembler: LiveTraceAssembler;
  private readonly state = new Map<string, TraceState>();
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;

  /** @param options - see {@link TraceIntakeOptions} */
  constructor(private readonly options: TraceIntakeOptions) {
    this.now = options.now ?? Date.now;
    this.assembler = new LiveTraceAssembler(
      {
        ...options.trace,
        timeoutMs: options.timeoutMs,
        maxOpenTraces: options.maxOpenTraces,
        onWarning: options.onWarning,
        onDropped: (traceId, reason) => {
          this.state.delete(traceId);
          options.onDropped(traceId, reason);
        },
      },
      this.now,
    );
    this.timer = setInterval(() => this.sweep(), Math.min(1000, Math.max(10, options.quietPeriodMs / 4)));
    this.timer.unref();
  }

  /** Unfinished traces held. */
  get openTraces(): number {
    return this.assembler.openTraces;
  }

  /** Add the spans of one request. */
  add(request: Pick<ReadRequest, 'reads' | 'rollouts'>): void {
    const now = this.now();
    for (const read of request.reads) {
      this.assembler.add(read);
      const traceId = read.traceId;
      if (traceId === undefined) continue;
      let st = this.state.get(traceId);
      if (st === undefined) {
        st = { lastSpanMs: now, rootEnded: false, rollout: request.rollouts[traceId] };
        this.state.set(traceId, st);
      }
      st.lastSpanMs = now;
      st.rollout ??= request.rollouts[traceId];
      if (!(read instanceof TraceInputError) && read.parentId === undefined) st.rootEnded = true;
    }
    if (this.options.quietPeriodMs === 0) this.sweep();
  }

  /** Turn the traces whose quiet period has passed into episodes, and evict stale ones. */
  sweep(): void {
    this.assembler.expire();
    const limit = this.now() - this.options.quietPeriodMs;
    for (const [traceId, st] of this.state) {
      if (!st.rootEnded || st.lastSpanMs > limit) continue;
      this.state.delete(traceId);
      const result = this.assembler.complete(traceId);
      if (result !== undefined) this.options.onEpisode(result, st.rollout);
    }
  }

  /** Stop the timer and drop what is still open. */
  close(): void {
    clearInterval(this.timer);
    this.assembler.dropAll('the server stopped before the trace finished (its spans stay in the episode log and are replayed at start)');
  }
}
