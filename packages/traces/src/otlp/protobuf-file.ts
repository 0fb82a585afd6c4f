/**
 * Protobuf OTLP export files, read by `readTraces` (and so `parl trace`) beside JSON. Two shapes
 * are recognised from their first bytes:
 * - **one `ExportTraceServiceRequest`**: the body an OTLP/HTTP protobuf exporter sends, saved to
 *   a file (it starts with the tag byte `0x0a` of `resource_spans`); read whole, at most
 *   {@link MAX_PROTOBUF_MESSAGE_BYTES};
 * - **length-prefixed requests**: each request preceded by its length as a 4-byte big-endian
 *   unsigned integer, as the OpenTelemetry Collector's file exporter writes with `format: proto`;
 *   read one request at a time.
 * Either may be gzip-compressed (`1f 8b`). Input whose first bytes are text (no control byte but
 * tab, newline and carriage return) is JSON and goes to the JSON reader unchanged.
 *
 * @module
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ParlInputError } from '@parl/core';
import { TraceInputError } from '../errors.js';
import { jsonUnits, type JsonUnitResult } from '../input/json-units.js';
import type { TraceInput } from '../input/text-chunks.js';
import { decodeOtlpProtobuf } from './protobuf-request.js';

/** The largest protobuf request read (one request file, or one length-prefixed entry). */
export const MAX_PROTOBUF_MESSAGE_BYTES = 256 * 1024 * 1024;

/** Bytes looked at to tell text from protobuf. */
const SNIFF_BYTES = 64;

/** What the first bytes of an input say it is. */
export type TraceFileShape = 'json' | 'gzip' | 'protobuf-request' | 'protobuf-length-prefixed';

/**
 * The shape of an input from its first bytes (at least `SNIFF_BYTES` of them when the input
 * is that long): gzip, JSON text, one protobuf request, or length-prefixed protobuf requests.
 */
export function traceFileShape(head: Uint8Array): TraceFileShape {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  const n = Math.min(head.length, SNIFF_BYTES);
  let text = true;
  for (let i = 0; i < n; i++) {
    const b = head[i] as number;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) {
      text = false;
      break;
    }
  }
  if (text) return 'json';
  return head[0] === 0x0a ? 'protobuf-request' : 'protobuf-length-prefixed';
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  throw new ParlInputError('input chunk', chunk, 'a string or bytes (Buffer, Uint8Array)');
}

async function* replay(first: readonly Uint8Array[], rest: AsyncIterator<unknown>): AsyncGenerator<Uint8Array> {
  yield* first;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return;
    yield toBytes(next.value);
  }
}

function requestUnit(bytes: Uint8Array, location: string): JsonUnitResult {
  try {
    return { value: decodeOtlpProtobuf(bytes), location };
  } catch (err) {
    const why = err instanceof RangeError ? 'nested too deeply to read' : err instanceof Error ? err.message : String(err);
    return new TraceInputError(location, `${bytes.byteLength} bytes (${why})`, 'an OTLP protobuf ExportTraceServiceRequest', undefined);
  }
}

function tooLarge(location: string, size: number): TraceInputError {
  return new TraceInputError(location, `${size} bytes`, `a protobuf request of at most ${MAX_PROTOBUF_MESSAGE_BYTES} bytes`, undefined);
}

async function* wholeRequest(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<JsonUnitResult> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bytes) {
    size += chunk.byteLength;
    if (size > MAX_PROTOBUF_MESSAGE_BYTES) {
      yield tooLarge('protobuf request', size);
      return;
    }
    parts.push(chunk);
  }
  yield requestUnit(Buffer.concat(parts), 'protobuf request');
}

async function* lengthPrefixed(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<JsonUnitResult> {
  let held = Buffer.alloc(0);
  let offset = 0;
  let ordinal = 0;
  for await (const chunk of bytes) {
    held = held.length === 0 ? Buffer.from(chunk) : Buffer.concat([held, chunk]);
    while (held.length >= 4) {
      const length = held.readUInt32BE(0);
      const location = `protobuf request ${ordinal + 1} (byte ${offset})`;
      if (length > MAX_PROTOBUF_MESSAGE_BYTES) {
        yield tooLarge(location, length);
        return;
      }
      if (held.length < 4 + length) break;
      ordinal += 1;
      yield requestUnit(held.subarray(4, 4 + length), location);
      held = held.subarray(4 + length);
      offset += 4 + length;
    }
  }
  if (held.length > 0) {
    yield new TraceInputError(
      `protobuf request ${ordinal + 1} (byte ${offset})`,
      `${held.length} bytes left`,
      'a 4-byte big-endian length and that many bytes of ExportTraceServiceRequest; the file is cut short, or is not length-prefixed protobuf',
      undefined,
    );
  }
}

/**
 * The input as JSON units: JSON text is read by the JSON reader; a protobuf export (see the
 * module comment for its shapes) is decoded one request at a time into the OTLP JSON form, each a
 * unit located `protobuf request N`.
 */
export async function* traceUnits(input: TraceInput): AsyncGenerator<JsonUnitResult> {
  if (typeof input !== 'object' || input === null || typeof input === 'string' || !(Symbol.asyncIterator in input || Symbol.iterator in input)) {
    throw new ParlInputError('input', input, 'an async iterable of strings or bytes, or a readable stream');
  }
  const it = (Symbol.asyncIterator in input ? (input as AsyncIterable<unknown>)[Symbol.asyncIterator]() : (input as Iterable<unknown>)[Symbol.iterator]()) as AsyncIterator<unknown>;
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let first = await it.next();
  // Text chunks are JSON: hand them over as they are.
  if (first.done !== true && typeof first.value === 'string') {
    const text = first.value;
    yield* jsonUnits(replayAny([text], it));
    return;
  }
  while (first.done !== true && headBytes < SNIFF_BYTES) {
    const chunk = toBytes(first.value);
    head.push(chunk);
    headBytes += chunk.byteLength;
    if (headBytes >= SNIFF_BYTES) break;
    first = await it.next();
  }
  const shape = traceFileShape(head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head));
  const bytes = replay(head, it);
  if (shape === 'json') {
    yield* jsonUnits(bytes);
  } else if (shape === 'gzip') {
    yield* traceUnits(gunzipped(bytes));
  } else if (shape === 'protobuf-request') {
    yield* wholeRequest(bytes);
  } else {
    yield* lengthPrefixed(bytes);
  }
}

async function* gunzipped(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const source = Readable.from(bytes);
  const gunzip = createGunzip();
  source.on('error', (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } catch (err) {
    throw new TraceInputError('input', err instanceof Error ? err.message : String(err), 'gzip-compressed trace data (it starts with the gzip bytes 1f 8b)', undefined);
  } finally {
    source.destroy();
  }
}

async function* replayAny(first: readonly unknown[], rest: AsyncIterator<unknown>): AsyncGenerator<string | Uint8Array> {
  for (const f of first) yield f as string | Uint8Array;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return;
    yield next.value as string | Uint8Array;
  }
}
