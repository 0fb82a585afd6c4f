/**
 * `POST /v1/traces`: the OTLP/HTTP trace receiver. JSON (`application/json`) or protobuf
 * (`application/x-protobuf`), optionally gzip; the request is decoded and read by `@parl/traces`
 * (`parseExportRequest`, `readExportRequest`); answers OTLP's `ExportTraceServiceResponse` in the
 * request's encoding, with a partial success naming spans that could not be read.
 *
 * @module
 */
import { encodeOtlpResponse, parseExportRequest, readExportRequest } from '@parl/traces';
import type { FastifyInstance } from 'fastify';
import { isProtobuf } from '../body/content-type.js';
import type { ParlService } from '../service.js';

/** Register `POST /v1/traces`. */
export function tracesRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Body: Buffer }>('/v1/traces', { config: { rawBody: true } }, async (request, reply) => {
    const protobuf = isProtobuf(request.headers['content-type']);
    // Decoding and reading are @parl/traces'; a TraceInputError is answered 400 by the error handler.
    const read = readExportRequest(parseExportRequest(request.body, protobuf ? 'protobuf' : 'json'), service.options.rolloutAttribute);
    await service.acceptSpans(read, request.body, protobuf);
    if (protobuf) return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(read.rejected, read.firstError)));
    return read.rejected > 0 ? { partialSuccess: { rejectedSpans: String(read.rejected), errorMessage: read.firstError ?? '' } } : {};
  });
}
