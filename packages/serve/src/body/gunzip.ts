/**
 * `Content-Encoding: gzip` request bodies, unpacked as they arrive (Fastify `preParsing`): the
 * body limit then applies to the unpacked bytes and to the bytes as sent.
 *
 * @module
 */
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { httpError } from '../http-error.js';

/** The stream Fastify reads the body from: the request as sent, or it gunzipped. */
export function decodedBody(payload: Readable, encoding: string | undefined): Readable {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  if (enc === 'identity' || enc === '') return payload;
  if (enc !== 'gzip' && enc !== 'x-gzip') throw httpError(415, `Content-Encoding ${enc} is not supported (gzip or none)`);
  const gunzip = createGunzip() as ReturnType<typeof createGunzip> & { receivedEncodedLength: number };
  gunzip.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => {
    gunzip.receivedEncodedLength += chunk.length;
  });
  pipeline(payload, gunzip, (err) => {
    if (err !== null && err !== undefined) (err as Error & { statusCode?: number }).statusCode ??= 400;
  });
  gunzip.on('error', (err: Error & { statusCode?: number }) => {
    err.statusCode ??= 400;
  });
  return gunzip;
}
