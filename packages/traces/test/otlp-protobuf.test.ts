/**
 * OTLP request decoding owned by @parl/traces: protobuf export files (one request, or 4-byte
 * big-endian length-prefixed requests, gzip or not) made by the real OpenTelemetry JS exporter's
 * serialiser (`ProtobufTraceSerializer` of @opentelemetry/otlp-transformer 0.223.1), both
 * field-name generations, and the attribute depth bound.
 */
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { MAX_ATTRIBUTE_DEPTH, parseExportRequest, readExportRequest, traceFileShape, TraceInputError, type TraceResult } from '../src/index.js';
import { collect, collectError } from './support/collect.js';
import { otlpSpan, smallTrace } from './support/hand-spans.js';
import { otelAgentRun } from './support/otel-agent-run.js';

const runA = otelAgentRun([{ subAgents: [{ name: 'a', llmCalls: 2, toolCalls: 1 }, { name: 'b', llmCalls: 1, toolCalls: 0 }], launch: 'parallel' }]);
const runB = otelAgentRun([{ subAgents: [{ name: 'c', llmCalls: 1, toolCalls: 1 }, { name: 'd', llmCalls: 2, toolCalls: 0 }], launch: 'serial' }]);

function protobufOf(run: typeof runA): Buffer {
  const bytes = ProtobufTraceSerializer.serializeRequest(run.spans);
  if (bytes === undefined) throw new Error('the serialiser gave nothing');
  return Buffer.from(bytes);
}

function lengthPrefixed(...requests: Buffer[]): Buffer {
  return Buffer.concat(
    requests.flatMap((r) => {
      const head = Buffer.alloc(4);
      head.writeUInt32BE(r.length, 0);
      return [head, r];
    }),
  );
}

function chunks(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const summary = (rs: readonly TraceResult[]): unknown => rs.map((r) => ({ id: r.traceId, record: r.record, finding: r.finding })).sort((a, b) => (a.id < b.id ? -1 : 1));

describe('readTraces on protobuf OTLP exports', () => {
  it('reads one ExportTraceServiceRequest exactly as the JSON export of the same spans, in any chunking', async () => {
    const json = await collect([`${runA.json}\n`]);
    const pb = protobufOf(runA);
    expect(traceFileShape(pb)).toBe('protobuf-request');
    expect(summary((await collect([pb])).results)).toEqual(summary(json.results));
    expect(summary((await collect(chunks(pb, 7))).results)).toEqual(summary(json.results));
    expect(json.results).toHaveLength(1);
  });

  it('reads 4-byte big-endian length-prefixed requests (the collector file exporter, format proto), gzip or not', async () => {
    const json = await collect([`${runA.json}\n${runB.json}\n`]);
    const file = lengthPrefixed(protobufOf(runA), protobufOf(runB));
    expect(traceFileShape(file)).toBe('protobuf-length-prefixed');
    expect(summary((await collect([file])).results)).toEqual(summary(json.results));
    expect(summary((await collect(chunks(file, 3))).results)).toEqual(summary(json.results));
    const gz = gzipSync(file);
    expect(traceFileShape(gz)).toBe('gzip');
    expect(summary((await collect(chunks(gz, 100))).results)).toEqual(summary(json.results));
    expect(json.results).toHaveLength(2);
  });

  it('names the request and byte of a cut length-prefixed file, and damaged protobuf', async () => {
    const file = lengthPrefixed(protobufOf(runA), protobufOf(runB));
    const cut = await collectError([file.subarray(0, file.length - 10)]);
    expect(cut).toBeInstanceOf(TraceInputError);
    expect(cut.message).toMatch(new RegExp(`protobuf request 2 \\(byte ${protobufOf(runA).length + 4}\\)`));
    const damaged = await collectError([Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2])]);
    expect(damaged).toBeInstanceOf(TraceInputError);
    expect(damaged.message).toMatch(/ExportTraceServiceRequest/);
    const badGzip = await collectError([Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8])]);
    expect(badGzip).toBeInstanceOf(TraceInputError);
    expect(badGzip.message).toMatch(/gzip/);
  });

  it('still reads JSON text given as bytes (a JSON file opened as a byte stream)', async () => {
    const json = await collect([`${runA.json}\n`]);
    expect(summary((await collect([Buffer.from(`\n\n${runA.json}\n`)])).results)).toEqual(summary(json.results));
  });
});

describe('readExportRequest / parseExportRequest', () => {
  const spans = smallTrace('t1').map(otlpSpan);

  it('reads both field-name generations (scopeSpans and the older instrumentationLibrarySpans) alike', () => {
    const now = readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, 'parl.rollout_id');
    const older = readExportRequest({ resourceSpans: [{ instrumentationLibrarySpans: [{ spans }] }] }, 'parl.rollout_id');
    expect(older.reads).toEqual(now.reads);
    expect(now.reads).toHaveLength(4);
  });

  it('decodes the real protobuf serialiser output to the JSON serialiser output (ids in hex)', () => {
    const pb = readExportRequest(parseExportRequest(protobufOf(runA), 'protobuf'), 'x');
    const json = readExportRequest(parseExportRequest(Buffer.from(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(runA.spans))), 'json'), 'x');
    expect(pb.reads).toEqual(json.reads);
  });

  it('takes the rollout id from a span attribute, else the resource attribute', () => {
    const tagged = spans.map((s, i) => (i === 0 ? { ...s, attributes: [...(s['attributes'] as unknown[]), { key: 'parl.rollout_id', value: { stringValue: 'r-span' } }] } : s));
    expect(readExportRequest({ resourceSpans: [{ resource: { attributes: [{ key: 'parl.rollout_id', value: { stringValue: 'r-res' } }] }, scopeSpans: [{ spans: tagged }] }] }, 'parl.rollout_id').rollouts).toEqual({ t1: 'r-span' });
    expect(readExportRequest({ resourceSpans: [{ resource: { attributes: [{ key: 'parl.rollout_id', value: { stringValue: 'r-res' } }] }, scopeSpans: [{ spans }] }] }, 'parl.rollout_id').rollouts).toEqual({ t1: 'r-res' });
  });

  it('refuses attributes nested deeper than the bound by name, at any depth, without exhausting the stack', () => {
    for (const depth of [MAX_ATTRIBUTE_DEPTH + 1, 2000, 100_000]) {
      let value: unknown = { stringValue: 'x' };
      for (let i = 1; i < depth; i++) value = i % 2 === 0 ? { arrayValue: { values: [value] } } : { kvlistValue: { values: [{ key: 'k', value }] } };
      const deep = { ...spans[0], attributes: [{ key: 'gen_ai.input.messages', value }] };
      let caught: unknown;
      try {
        readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans: [deep] }] }] }, 'x');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(TraceInputError);
      expect((caught as TraceInputError).field).toBe('span 1 attribute "gen_ai.input.messages"');
    }
    let ok: unknown = { stringValue: 'x' };
    for (let i = 1; i < MAX_ATTRIBUTE_DEPTH; i++) ok = { arrayValue: { values: [ok] } };
    expect(readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{ ...spans[0], attributes: [{ key: 'k', value: ok }] }] }] }] }, 'x').rejected).toBe(0);
  });

  it('names bodies that are neither JSON nor protobuf, and a JSON body that is no export request', () => {
    expect(() => parseExportRequest(Buffer.from('{"resourceSpans": ['), 'json')).toThrow(TraceInputError);
    expect(() => parseExportRequest(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), 'protobuf')).toThrow(/ExportTraceServiceRequest/);
    expect(() => readExportRequest({ spans: [] }, 'x')).toThrow(/resourceSpans/);
  });
});
