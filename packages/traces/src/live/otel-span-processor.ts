/**
 * `ParlSpanProcessor`: an OpenTelemetry JS `SpanProcessor` that turns each finished trace into its
 * spec §5 record and finding in-process.
 *
 * @module
 */
import { readOtlpSpan } from '../formats/otlp.js';
import { LiveTraceAssembler } from './live-assembler.js';
import type { LiveTraceOptions } from './live-options.js';

/** What the processor reads of an OpenTelemetry SDK `ReadableSpan` (sdk-trace-base 1.x and 2.x). */
export interface ReadableSpanLike {
  /** `spanContext().traceId` / `.spanId`. */
  spanContext(): { readonly traceId: string; readonly spanId: string };
  /** The parent (sdk-trace-base 2.x). */
  readonly parentSpanContext?: { readonly spanId: string; readonly isRemote?: boolean } | undefined;
  /** The parent's id (sdk-trace-base 1.x). */
  readonly parentSpanId?: string | undefined;
  /** The span name. */
  readonly name: string;
  /** `[seconds, nanoseconds]` since the epoch. */
  readonly startTime: readonly [number, number];
  /** `[seconds, nanoseconds]` since the epoch. */
  readonly endTime: readonly [number, number];
  /** The attributes. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** `{code}`: 2 is ERROR. */
  readonly status: { readonly code: number };
}

function nanos([seconds, ns]: readonly [number, number]): string {
  return (BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(ns))).toString();
}

function anyValue(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: v } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValue) } };
  return { stringValue: String(v) };
}

/**
 * The OTLP JSON form of a finished span (what the OTLP/HTTP JSON exporter would send), so that a
 * live span is read exactly as `parl trace` reads the exported file. A remote parent (another
 * process) makes the span a local root.
 */
export function otlpJsonOfSpan(span: ReadableSpanLike): Record<string, unknown> {
  const { traceId, spanId } = span.spanContext();
  const parent = span.parentSpanContext;
  const parentSpanId = parent !== undefined ? (parent.isRemote === true ? undefined : parent.spanId) : span.parentSpanId;
  return {
    traceId,
    spanId,
    ...(parentSpanId === undefined || parentSpanId === '' ? {} : { parentSpanId }),
    name: span.name,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: Object.entries(span.attributes)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([key, value]) => ({ key, value: anyValue(value) })),
    status: { code: span.status.code },
  };
}

/**
 * An OpenTelemetry `SpanProcessor`: add it to your tracer provider and each trace becomes a
 * record and finding when its local root span ends (the same as `parl trace` gives for the
 * exported spans). Spans are held per open trace only; see {@link LiveTraceOptions} for the
 * timeout and the cap on open traces.
 *
 * @example
 * ```ts
 * // BasicTracerProvider here; in an app, NodeTracerProvider (@opentelemetry/sdk-trace-node), register()ed
 * import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
 * import { ParlSpanProcessor } from '@parl/traces';
 *
 * const provider = new BasicTracerProvider({ spanProcessors: [new ParlSpanProcessor({ recordsFile: 'episodes.jsonl', findingsFile: 'findings.jsonl' })] });
 * const tracer = provider.getTracer('app');
 * await provider.shutdown();
 * ```
 */
export class ParlSpanProcessor {
  private readonly assembler: LiveTraceAssembler;

  /** @param options - see {@link LiveTraceOptions} */
  constructor(options: LiveTraceOptions = {}) {
    this.assembler = new LiveTraceAssembler(options);
  }

  /** Traces currently held (for memory checks). */
  get openTraces(): number {
    return this.assembler.openTraces;
  }

  /** Nothing to do when a span starts. */
  onStart(): void {}

  /** Read the finished span; when it is its trace's local root, map and drop the trace. */
  onEnd(span: ReadableSpanLike): void {
    const json = otlpJsonOfSpan(span);
    this.assembler.add(readOtlpSpan(json, `live span ${String(json['spanId'])}`));
    if (json['parentSpanId'] === undefined) this.assembler.complete(String(json['traceId']));
  }

  /** Nothing is buffered beyond open traces: resolves at once. */
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  /** Drop the traces still open (with a warning each). */
  shutdown(): Promise<void> {
    this.assembler.dropAll('the processor was shut down before the trace ended');
    return Promise.resolve();
  }
}
