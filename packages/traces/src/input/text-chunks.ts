/**
 * Turning the accepted inputs (async iterables of strings or bytes, Node readable streams) into
 * UTF-8 text chunks, never splitting a multi-byte character.
 *
 * @module
 */
import { StringDecoder } from 'node:string_decoder';
import { ParlInputError } from '@parl/core';

/** What {@link readTraces} reads: text or bytes, as an async iterable or a Node readable stream. */
export type TraceInput = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> | NodeJS.ReadableStream;

function isIterable(value: object): value is AsyncIterable<unknown> | Iterable<unknown> {
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

/**
 * The input as UTF-8 text chunks.
 *
 * @throws `ParlInputError` (from `@parl/core`) when the input is not iterable or yields something other than
 *   strings and bytes
 */
export async function* textChunks(input: TraceInput): AsyncGenerator<string> {
  if (typeof input !== 'object' || input === null || typeof input === 'string' || !isIterable(input)) {
    throw new ParlInputError('input', input, 'an async iterable of strings or bytes, or a readable stream');
  }
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input as AsyncIterable<unknown>) {
    if (typeof chunk === 'string') {
      yield chunk;
    } else if (chunk instanceof Uint8Array) {
      const text = decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (text !== '') yield text;
    } else {
      throw new ParlInputError('input chunk', chunk, 'a string or bytes (Buffer, Uint8Array)');
    }
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}
