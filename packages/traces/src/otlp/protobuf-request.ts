/**
 * OTLP protobuf: the `ExportTraceServiceRequest` of opentelemetry-proto (trace v1) decoded with
 * protobufjs into the OTLP JSON form (ids in hex, 64-bit integers as decimal strings), so that one
 * reader serves both encodings; and the empty `ExportTraceServiceResponse` / partial success
 * answer a receiver sends back.
 *
 * @module
 */
import protobuf, { type INamespace } from 'protobufjs/light.js';

const keyValue = { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } };
const repeated = (type: string, id: number): { rule: string; type: string; id: number } => ({ rule: 'repeated', type, id });

/** The messages of opentelemetry-proto's trace service that a receiver reads (field numbers as in the .proto files). */
const DESCRIPTOR: INamespace = {
  nested: {
    ExportTraceServiceRequest: { fields: { resourceSpans: repeated('ResourceSpans', 1) } },
    ExportTraceServiceResponse: { fields: { partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } } },
    ExportTracePartialSuccess: { fields: { rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } } },
    // Field 1000 is the older generation's `instrumentation_library_spans` (opentelemetry-proto before
    // 1.0; wire-compatible with ScopeSpans): read, and merged into scopeSpans by the request reader.
    ResourceSpans: {
      fields: { resource: { type: 'Resource', id: 1 }, scopeSpans: repeated('ScopeSpans', 2), schemaUrl: { type: 'string', id: 3 }, instrumentationLibrarySpans: repeated('ScopeSpans', 1000) },
    },
    Resource: { fields: { attributes: repeated('KeyValue', 1), droppedAttributesCount: { type: 'uint32', id: 2 } } },
    ScopeSpans: { fields: { scope: { type: 'InstrumentationScope', id: 1 }, spans: repeated('Span', 2), schemaUrl: { type: 'string', id: 3 } } },
    InstrumentationScope: {
      fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 }, attributes: repeated('KeyValue', 3), droppedAttributesCount: { type: 'uint32', id: 4 } },
    },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        flags: { type: 'fixed32', id: 16 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 },
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: repeated('KeyValue', 9),
        droppedAttributesCount: { type: 'uint32', id: 10 },
        events: repeated('Event', 11),
        droppedEventsCount: { type: 'uint32', id: 12 },
        links: repeated('Link', 13),
        droppedLinksCount: { type: 'uint32', id: 14 },
        status: { type: 'Status', id: 15 },
      },
    },
    Event: {
      fields: { timeUnixNano: { type: 'fixed64', id: 1 }, name: { type: 'string', id: 2 }, attributes: repeated('KeyValue', 3), droppedAttributesCount: { type: 'uint32', id: 4 } },
    },
    Link: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        attributes: repeated('KeyValue', 4),
        droppedAttributesCount: { type: 'uint32', id: 5 },
        flags: { type: 'fixed32', id: 6 },
      },
    },
    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
    KeyValue: keyValue,
    AnyValue: {
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
        arrayValue: { type: 'ArrayValue', id: 5 },
        kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: repeated('AnyValue', 1) } },
    KeyValueList: { fields: { values: repeated('KeyValue', 1) } },
  },
};

const root = protobuf.Root.fromJSON(DESCRIPTOR);
const Request = root.lookupType('ExportTraceServiceRequest');
const Response = root.lookupType('ExportTraceServiceResponse');

const hex = (v: unknown): string | undefined => (v instanceof Uint8Array && v.length > 0 ? Buffer.from(v.buffer, v.byteOffset, v.length).toString('hex') : undefined);

function fixValue(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const v = value as Record<string, unknown>;
  if (v['bytesValue'] instanceof Uint8Array) v['bytesValue'] = Buffer.from(v['bytesValue']).toString('base64');
  const arr = v['arrayValue'] as { values?: unknown[] } | undefined;
  for (const item of arr?.values ?? []) fixValue(item);
  const kv = v['kvlistValue'] as { values?: { value?: unknown }[] } | undefined;
  for (const item of kv?.values ?? []) fixValue(item.value);
}

function fixAttributes(attrs: unknown): void {
  if (!Array.isArray(attrs)) return;
  for (const kv of attrs as { value?: unknown }[]) fixValue(kv.value);
}

function fixIds(obj: Record<string, unknown>, fields: readonly string[]): void {
  for (const f of fields) {
    if (!(f in obj)) continue;
    const h = hex(obj[f]);
    if (h === undefined) delete obj[f];
    else obj[f] = h;
  }
}

/**
 * Decode an OTLP protobuf trace export (`ExportTraceServiceRequest`) into its OTLP JSON form.
 *
 * @throws Error (from protobufjs) for bytes that are not an `ExportTraceServiceRequest`
 *
 * @example
 * ```ts
 * import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
 * import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
 *
 * // What an OTLP/HTTP exporter posts with protobuf encoding:
 * const exporter = new InMemorySpanExporter();
 * new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('app').startSpan('invoke_agent main').end();
 * const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans()) as Uint8Array;
 * const request = decodeOtlpProtobuf(body); // { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8a…', … }] }] }] }
 * request.resourceSpans.length; // 1
 * ```
 */
export function decodeOtlpProtobuf(bytes: Uint8Array): { resourceSpans: Record<string, unknown>[] } {
  const message = Request.decode(bytes);
  const obj = Request.toObject(message, { longs: String, enums: Number, defaults: false, arrays: true }) as { resourceSpans: Record<string, unknown>[] };
  for (const rs of obj.resourceSpans) {
    fixAttributes((rs['resource'] as { attributes?: unknown } | undefined)?.attributes);
    for (const sc of [...((rs['scopeSpans'] as Record<string, unknown>[] | undefined) ?? []), ...((rs['instrumentationLibrarySpans'] as Record<string, unknown>[] | undefined) ?? [])]) {
      for (const span of (sc['spans'] as Record<string, unknown>[] | undefined) ?? []) {
        fixIds(span, ['traceId', 'spanId', 'parentSpanId']);
        fixAttributes(span['attributes']);
        for (const e of (span['events'] as { attributes?: unknown }[] | undefined) ?? []) fixAttributes(e.attributes);
        for (const l of (span['links'] as Record<string, unknown>[] | undefined) ?? []) {
          fixIds(l, ['traceId', 'spanId']);
          fixAttributes(l['attributes']);
        }
      }
    }
  }
  return obj;
}

/** The protobuf `ExportTraceServiceResponse`: empty, or with a partial success naming rejected spans. */
export function encodeOtlpResponse(rejectedSpans: number, errorMessage: string | undefined): Uint8Array {
  const body = rejectedSpans > 0 ? { partialSuccess: { rejectedSpans, errorMessage: errorMessage ?? '' } } : {};
  return Response.encode(Response.fromObject(body)).finish();
}
