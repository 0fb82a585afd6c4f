/**
 * Reading an Arrow IPC file's bytes: bounded reads at an offset, the bound on one message's
 * metadata, and the one-line error a damaged file ends in.
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { ParlInputError, type ParlErrorCode } from '@parl/core';

/** Largest message metadata read (the schema of a very wide table is far below it). */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;
/** A damaged Arrow file, as a one-line error naming the file, the part, the value and what was expected. */
export function arrowDamage(path: string, field: string, value: unknown, expected: string, code: ParlErrorCode = 'PARL_ERR_PARSE'): ParlInputError {
  return new ParlInputError(field, value, expected, `--in ${path} (Arrow IPC)`, code);
}

/** Read `length` bytes at `position` (fewer at the end of the file) into a buffer of their own. */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === length ? buffer : buffer.subarray(0, got);
}
