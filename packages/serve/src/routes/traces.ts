/**
 * `POST /v1/traces`: the OTLP/HTTP trace receiver. JSON (`application/json`) or protobuf
 * (`application/x-protobuf`), optionally gzip; the request is decoded and read by `@parl/traces`
 * (`parseExportRequest`, `readExportRequest`), on a labelling thread for a request of
 * {@link OTLP_THREAD_BYTES} or more (thread-tasks.ts); answers OTLP's `ExportTraceServiceResponse` in the
 * request's encoding, with a partial success naming spans that could not be read.
 *
 * @module
 */
import { encodeOtlpResponse, parseExportRequest, readExportRequest } from '@parl/traces';
import type { FastifyInstance } from 'fastify';
import { isProtobuf } from '../body/content-type.js';
import { httpError } from '../http-error.js';
import type { ParlService } from '../service.js';
import type { OtlpReadInput, OtlpReadSlices } from '../threads/thread-tasks.js';

/**
 * Requests this large or larger (after gunzip) are decoded and read on a labelling thread, their
 * spans handed back in slices; smaller ones (an OpenTelemetry SDK's default batch of 512 spans is
 * well under it) on the event loop, which holds it for a few milliseconds (2.5 ms for 1,000 small
 * spans, 357 KB, on the shared development machine). Reading them on a thread cost more memory
 * than it saved time: the spans are decoded there and rebuilt here, so both heaps grow with the
 * ingest (200,000 spans in requests of 1,000 peaked at 288 MiB that way, 137 MiB read here).
 */
export const OTLP_THREAD_BYTES = 512 * 1024;

/** The bytes of a body in an array buffer of their own, to move to a thread (a view into a larger buffer is copied). */
function ownBytes(body: Buffer): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return new Uint8Array(body.buffer, 0, body.byteLength);
  return new Uint8Array(body);
}

/** Register `POST /v1/traces`. */
export function tracesRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Body: Buffer }>('/v1/traces', { config: { rawBody: true } }, async (request, reply) => {
    const protobuf = isProtobuf(request.headers['content-type']);
    const call = service.labeller.call;
    if (call !== undefined && request.body.byteLength >= OTLP_THREAD_BYTES) {
      // The body's bytes are moved to the thread: they are not used here afterwards.
      const body = ownBytes(request.body);
      const input: OtlpReadInput = { body, protobuf, rolloutAttribute: service.options.rolloutAttribute };
      const read = await call<OtlpReadSlices | { error: string }>('readOtlpTask', input, [body.buffer as ArrayBuffer], body.byteLength);
      if ('error' in read) throw httpError(400, read.error);
      await service.acceptSpanSlices(read);
      if (protobuf) return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(read.rejected, read.firstError)));
      return read.rejected > 0 ? { partialSuccess: { rejectedSpans: String(read.rejected), errorMessage: read.firstError ?? '' } } : {};
    }
    // Decoding and reading are @parl/traces'; a TraceInputError is answered 400 by the error handler.
    const read = readExportRequest(parseExportRequest(request.body, protobuf ? 'protobuf' : 'json'), service.options.rolloutAttribute);
    await service.acceptSpans(read, request.body, protobuf);
    if (protobuf) return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(read.rejected, read.firstError)));
    return read.rejected > 0 ? { partialSuccess: { rejectedSpans: String(read.rejected), errorMessage: read.firstError ?? '' } } : {};
  });
}
