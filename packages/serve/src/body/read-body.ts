/**
 * Read a request body into one buffer as its chunks arrive. Fastify's own reader keeps the chunks
 * and joins them when the body is complete: for a 16 MiB body that join (a fresh 16 MiB buffer,
 * its pages touched for the first time) holds the event loop for tens of milliseconds in one
 * go. Here a body whose length is known (`Content-Length`, not compressed) is copied chunk by
 * chunk into a buffer of that size, so the work is spread over the chunks' events; a compressed
 * body or one sent in chunked encoding is joined at the end as before. The checks are Fastify's:
 * the limit on the bytes as sent and as read, and the received length against `Content-Length`.
 *
 * @module
 */
import type { Readable } from 'node:stream';
import { httpError } from '../http-error.js';

/** The stream a body arrives on; `receivedEncodedLength` is set by the gunzip stage. */
type BodyStream = Readable & { receivedEncodedLength?: number };

/**
 * Read `payload` whole, at most `limit` bytes (as sent and as read), then call `done` once with
 * the body or an error carrying its HTTP status (413 over the limit, 400 for a length that does
 * not match `Content-Length` or a stream error).
 */
export function readBody(payload: BodyStream, contentLengthHeader: string | undefined, limit: number, done: (err: Error | null, body?: Buffer) => void): void {
  const contentLength = contentLengthHeader === undefined ? Number.NaN : Number(contentLengthHeader);
  const tooLarge = (): Error => httpError(413, `the body is larger than the limit of ${limit} bytes`);
  if (contentLength > limit) {
    done(tooLarge());
    return;
  }
  // Copy into place only when what arrives is what was sent (no gunzip stage in between).
  const encoded = payload.receivedEncodedLength !== undefined;
  const target = !encoded && Number.isSafeInteger(contentLength) && contentLength > 0 ? Buffer.allocUnsafe(contentLength) : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;

  const finish = (err: Error | null, body?: Buffer): void => {
    if (finished) return;
    finished = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(err, body);
  };
  function onData(data: Buffer | string): void {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    const at = received;
    received += chunk.length;
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      finish(tooLarge());
      return;
    }
    if (target !== undefined) {
      // More than Content-Length said: refused at the end, as Fastify does; not copied past the buffer.
      if (received <= target.length) chunk.copy(target, at);
    } else {
      chunks.push(chunk);
    }
  }
  function onEnd(): void {
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
      finish(httpError(400, 'Request body size did not match Content-Length'));
      return;
    }
    // A copy always: the chunks may be views of the socket's shared read buffer.
    finish(null, target ?? Buffer.concat(chunks, received));
  }
  function onError(err: Error & { statusCode?: number }): void {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    finish(err);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
