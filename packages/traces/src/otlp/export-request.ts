/**
 * One OTLP trace export request (`ExportTraceServiceRequest`), from its bytes (JSON or protobuf)
 * to its spans read, with each trace's rollout id: what an OTLP receiver and a protobuf export
 * file are made of. Both generations of the field names are read: `scopeSpans` and the older
 * `instrumentationLibrarySpans`.
 *
 * @module
 */
import { TraceInputError } from '../errors.js';
import { readOtlpSpan } from '../formats/otlp.js';
import type { SpanReadResult } from '../formats/span-fields.js';
import { MAX_ATTRIBUTE_DEPTH, tooDeepAttribute } from './attribute-depth.js';
import { decodeOtlpProtobuf } from './protobuf-request.js';

/** How the bytes of a request are encoded. */
export type OtlpEncoding = 'json' | 'protobuf';

/** The spans of one OTLP export request, read. */
export interface OtlpExportRead {
  /** The spans as OTLP JSON objects (protobuf requests are turned into this form). */
  readonly spans: Record<string, unknown>[];
  /** Each span read (or why it could not be), in the order of {@link OtlpExportRead.spans}. */
  readonly reads: SpanReadResult[];
  /** Rollout ids by trace id, from a span attribute or else a resource attribute. */
  readonly rollouts: Record<string, string>;
  /** Spans that could not be read. */
  readonly rejected: number;
  /** The first unreadable span's message. */
  readonly firstError: string | undefined;
}

/** Limits applied while a request is read. */
export interface OtlpReadLimits {
  /** Deepest attribute nesting accepted (default {@link MAX_ATTRIBUTE_DEPTH}). */
  readonly maxAttributeDepth?: number;
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

function scopesOf(rs: Record<string, unknown>): unknown[] {
  const now = rs['scopeSpans'];
  const older = rs['instrumentationLibrarySpans'];
  if (Array.isArray(now) && Array.isArray(older)) return [...(now as unknown[]), ...(older as unknown[])];
  if (Array.isArray(now)) return now;
  return Array.isArray(older) ? older : [];
}

/**
 * Parse the bytes of an export request: OTLP JSON, or protobuf `ExportTraceServiceRequest`
 * (turned into the JSON form).
 *
 * @throws {@link TraceInputError} (field `body`, the value the parser's reason) for bytes that
 *   are not JSON or not an `ExportTraceServiceRequest`
 */
export function parseExportRequest(bytes: Uint8Array, encoding: OtlpEncoding): unknown {
  try {
    if (encoding === 'protobuf') return decodeOtlpProtobuf(bytes);
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
  } catch (err) {
    const why = err instanceof RangeError ? 'nested too deeply to read' : err instanceof Error ? err.message : String(err);
    throw new TraceInputError('body', why, encoding === 'protobuf' ? 'an OTLP protobuf ExportTraceServiceRequest' : 'OTLP JSON', 'the request');
  }
}

/**
 * Read the spans of a parsed OTLP export request, noting each trace's rollout id from the span
 * attribute `rolloutAttribute` (or, failing that, the resource attribute of that name).
 *
 * @throws {@link TraceInputError} when the request has no `resourceSpans` array, or a span's
 *   attributes nest deeper than {@link OtlpReadLimits.maxAttributeDepth}
 *
 * @example
 * ```ts
 * const span = (spanId: string, parentSpanId: string | undefined, op: string, name: string, from: number, to: number) => ({
 *   traceId: '5b8aa5a2d2c872e8321cf37308d69df2', spanId, parentSpanId, name: `${op} ${name}`,
 *   startTimeUnixNano: `${1_700_000_000 + from}000000000`, endTimeUnixNano: `${1_700_000_000 + to}000000000`,
 *   attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: op } }, { key: 'gen_ai.agent.name', value: { stringValue: name } }],
 * });
 * const body = new TextEncoder().encode(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [
 *   span('a1', undefined, 'invoke_agent', 'main', 0, 3), span('c1', 'a1', 'chat', 'm', 1, 2),
 * ] }] }] }));
 * const read = readExportRequest(parseExportRequest(body, 'json'), 'parl.rollout_id');
 * read.reads.length; // 2
 * ```
 */
export function readExportRequest(request: unknown, rolloutAttribute: string, limits: OtlpReadLimits = {}): OtlpExportRead {
  if (typeof request !== 'object' || request === null || !Array.isArray((request as { resourceSpans?: unknown }).resourceSpans)) {
    throw new TraceInputError(
      'resourceSpans',
      typeof request === 'object' && request !== null ? (request as { resourceSpans?: unknown }).resourceSpans : request,
      'an OTLP export request: an object with a resourceSpans array',
      'the request',
    );
  }
  const maxDepth = limits.maxAttributeDepth ?? MAX_ATTRIBUTE_DEPTH;
  const spans: Record<string, unknown>[] = [];
  const reads: SpanReadResult[] = [];
  const rollouts: Record<string, string> = {};
  let rejected = 0;
  let firstError: string | undefined;
  for (const rs of (request as { resourceSpans: unknown[] }).resourceSpans) {
    if (typeof rs !== 'object' || rs === null) continue;
    const resourceRollout = attributeValue((rs as { resource?: { attributes?: unknown } }).resource?.attributes, rolloutAttribute);
    for (const sc of scopesOf(rs as Record<string, unknown>)) {
      const list = typeof sc === 'object' && sc !== null ? (sc as { spans?: unknown }).spans : undefined;
      if (!Array.isArray(list)) continue;
      for (const span of list as unknown[]) {
        const attributes = typeof span === 'object' && span !== null ? (span as { attributes?: unknown }).attributes : undefined;
        const deep = tooDeepAttribute(attributes, maxDepth);
        if (deep !== undefined) {
          throw new TraceInputError(`span ${spans.length + 1} attribute ${JSON.stringify(deep)}`, `a value nested more than ${maxDepth} levels deep`, `attribute values nested at most ${maxDepth} levels (arrayValue / kvlistValue)`, 'the request');
        }
        const read = readOtlpSpan(span, `span ${spans.length + 1}`);
        if (read instanceof TraceInputError) {
          rejected += 1;
          firstError ??= read.message;
        }
        reads.push(read);
        spans.push(span as Record<string, unknown>);
        const traceId = read.traceId;
        if (traceId !== undefined && rollouts[traceId] === undefined) {
          const rollout = attributeValue(attributes, rolloutAttribute) ?? resourceRollout;
          if (rollout !== undefined) rollouts[traceId] = rollout;
        }
      }
    }
  }
  return { spans, reads, rollouts, rejected, firstError };
}
