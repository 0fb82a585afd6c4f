/**
 * The framing of an Arrow IPC file checked before any of it is decoded: every message's length
 * fields must fit in the file, a stream must end with its end-of-stream marker, and a file
 * (`ARROW1` … footer … `ARROW1`) must have both magic strings and a footer length that fits.
 * apache-arrow reads a cut stream as if it ended there (the rest lost without a word), spins on
 * some tiny files, allocates whatever a flipped length field says (gigabytes) before finding it
 * short, and reports a damaged footer as "Cannot read properties of null"; this check turns each
 * of those into one line naming the file, the offset and what was expected, and reads at most one
 * message's metadata at a time (bounded by {@link MAX_METADATA_BYTES}).
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { Message } from 'apache-arrow';
import { ParlIoError } from '../errors.js';

/** The bytes of the file format's magic string. */
const MAGIC = Buffer.from('ARROW1');
/** Largest message metadata read (the schema of a very wide table is far below it). */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;
const CONTINUATION = 0xffffffff;

/** Where the IPC stream of a checked file lies: the bytes `[start, end)` hold its messages (and, when `eos`, the end-of-stream marker). */
export interface ArrowStreamRange {
  /** First byte of the first message. */
  readonly start: number;
  /** One past the last byte of the stream part. */
  readonly end: number;
  /** Messages in it (schema, dictionaries, batches). */
  readonly messages: number;
}

/** A damaged or cut Arrow file, as a one-line error naming it. */
function damaged(path: string, detail: string): ParlIoError {
  return new ParlIoError(`cannot read --in ${path}: not a whole Arrow IPC file (${detail})`, 2);
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === length ? buffer : buffer.subarray(0, got);
}

/**
 * Walk the messages from `start` to at most `limit`: each one's metadata length and body length
 * must fit before `limit`. Returns where the stream part ends (after the end-of-stream marker, or
 * at the last message when `eosOptional` and the bytes end there).
 */
async function walkMessages(handle: FileHandle, path: string, start: number, limit: number, eosOptional: boolean): Promise<ArrowStreamRange> {
  let at = start;
  let messages = 0;
  for (;;) {
    if (at === limit) {
      if (eosOptional && messages > 0) return { start, end: at, messages };
      throw damaged(path, messages === 0 ? 'no message in it' : `cut after message ${messages} at byte ${at}: no end-of-stream marker`);
    }
    if (at + 4 > limit) throw damaged(path, `cut at byte ${at}: ${limit - at} bytes where a message length was expected`);
    const head = await readAt(handle, at, 8);
    let length = head.readUInt32LE(0);
    let headBytes = 4;
    if (length === CONTINUATION) {
      if (at + 8 > limit) throw damaged(path, `cut at byte ${at}: a message length is missing after the continuation marker`);
      length = head.readUInt32LE(4);
      headBytes = 8;
    }
    if (length === 0) {
      if (messages === 0) throw damaged(path, `the end-of-stream marker at byte ${at} comes before any schema`);
      return { start, end: at + headBytes, messages };
    }
    if (length > MAX_METADATA_BYTES || at + headBytes + length > limit) {
      throw damaged(path, `message ${messages + 1} at byte ${at} says ${length} metadata bytes, but ${limit - at - headBytes} bytes are left`);
    }
    const metadata = await readAt(handle, at + headBytes, length);
    let bodyLength: number;
    try {
      bodyLength = Number(Message.decode(metadata).bodyLength);
    } catch (err) {
      throw damaged(path, `message ${messages + 1} at byte ${at} has damaged metadata: ${err instanceof Error ? err.message : String(err)}`);
    }
    const bodyStart = at + headBytes + length;
    if (!Number.isSafeInteger(bodyLength) || bodyLength < 0 || bodyStart + bodyLength > limit) {
      throw damaged(path, `message ${messages + 1} at byte ${at} says a ${bodyLength}-byte body, but ${limit - bodyStart} bytes are left`);
    }
    at = bodyStart + bodyLength;
    messages++;
  }
}

/**
 * Check the framing of the Arrow IPC file `path` (the file format when it starts with `ARROW1`,
 * else the stream format) and say where its stream of messages lies.
 *
 * @throws {@link ParlIoError} (exit code 2) naming the file and the first thing wrong
 *
 * @example
 * ```ts
 * const { start, end } = await checkArrowFraming(handle, 'episodes.arrow', size);
 * ```
 */
export async function checkArrowFraming(handle: FileHandle, path: string, size: number): Promise<ArrowStreamRange> {
  const head = await readAt(handle, 0, Math.min(size, 8));
  if (head.length >= 6 && head.subarray(0, 6).equals(MAGIC)) {
    // The file format: magic, padding to 8, the stream, the footer, its int32 length, magic.
    if (size < 8 + 4 + 6) throw damaged(path, `${size} bytes: too short for the file format's magic strings and footer`);
    const tail = await readAt(handle, size - 10, 10);
    if (!tail.subarray(4).equals(MAGIC)) throw damaged(path, 'the closing ARROW1 magic string is missing: the file is cut or damaged');
    const footerLength = tail.readInt32LE(0);
    const footerStart = size - 10 - footerLength;
    if (footerLength <= 0 || footerStart < 8) throw damaged(path, `the footer length ${footerLength} does not fit in ${size} bytes`);
    const range = await walkMessages(handle, path, 8, footerStart, true);
    if (range.end !== footerStart) throw damaged(path, `${footerStart - range.end} bytes between the end-of-stream marker and the footer`);
    return range;
  }
  const range = await walkMessages(handle, path, 0, size, false);
  if (range.end !== size) throw damaged(path, `${size - range.end} bytes after the end-of-stream marker at byte ${range.end - 8}`);
  return range;
}
