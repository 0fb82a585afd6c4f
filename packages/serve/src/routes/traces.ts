/**
 * `POST /v1/traces`: the OTLP/HTTP trace receiver. JSON (`application/json`) or protobuf
 * (`application/x-protobuf`), optionally gzip; answers OTLP's `ExportTraceServiceResponse` in the
 * request's encoding, with a partial success naming spans that could not be read.
 *
 * @module
 */
import { TraceInputError } from '@parl/traces';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../http-error.js';
import { decodeOtlpProtobuf, encodeOtlpResponse } from '../otlp/otlp-protobuf.js';
import { readExportRequest } from '../episodes/trace-intake.js';
import type { ParlService } from '../service.js';

/** True for the protobuf content types OTLP exporters send. */
export function isProtobuf(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/x-protobuf' || type === 'application/protobuf';
}

/** Register `POST /v1/traces`. */
export function tracesRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Body: Buffer }>('/v1/traces', { config: { rawBody: true } }, async (request, reply) => {
    const protobuf = isProtobuf(request.headers['content-type']);
    let body: unknown;
    try {
      body = protobuf ? decodeOtlpProtobuf(request.body) : (JSON.parse(request.body.toString('utf8')) as unknown);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw httpError(400, protobuf ? `malformed OTLP protobuf: ${why}` : `the body is not valid JSON: ${why}`);
    }
    let read;
    try {
      read = readExportRequest(body, service.options.rolloutAttribute);
    } catch (err) {
      if (err instanceof TraceInputError) throw httpError(400, err.message);
      throw err;
    }
    await service.acceptSpans(read, request.body, protobuf);
    if (protobuf) return reply.type('application/x-protobuf').send(Buffer.from(encodeOtlpResponse(read.rejected, read.firstError)));
    return read.rejected > 0 ? { partialSuccess: { rejectedSpans: String(read.rejected), errorMessage: read.firstError ?? '' } } : {};
  });
}
