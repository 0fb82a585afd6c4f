/**
 * What `--log FILE` may name, checked before anything is written: a new file in an existing
 * folder (it gets the log's header line), or a PARL episode log (recognised by that header, or —
 * for a log written before the header existed — by a first line that is a log entry). Any other
 * file is refused untouched, and of a real log only a torn final entry is repaired, with a word.
 *
 * @module
 */
import { closeSync, openSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ParlInputError } from '@parl/core';

/** The first line of every episode log this server creates. */
export const LOG_HEADER = { t: 'parl-episode-log', v: 1 } as const;

/** {@link LOG_HEADER} as its line. */
export const LOG_HEADER_LINE = `${JSON.stringify(LOG_HEADER)}\n`;

/** The kinds of log entry (`t`), by which a log written before the header is recognised. */
const ENTRY_KINDS: ReadonlySet<string> = new Set(['reward', 'spans', 'otlp', 'episode', 'outcome', 'evicted']);

/** Bytes read to find the first line. */
const HEAD_BYTES = 64 * 1024;

/** How an existing file was found. */
export interface LogFileState {
  /** The file did not exist or was empty: the header is to be written. */
  readonly fresh: boolean;
  /** The file did not exist: opening the log creates it. */
  readonly created?: true;
  /** A word on a repair made (a torn last entry cut, or a missing final newline added). */
  readonly repaired: string | undefined;
}

function refuse(path: string, expected: string): ParlInputError {
  return new ParlInputError('logFile', path, expected);
}

function firstLine(path: string, size: number): string {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, n).toString('utf8');
    const end = text.indexOf('\n');
    return end < 0 ? text : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

/** True for the header line, or (a log from before the header) a first line that is a log entry. */
function isLogHead(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const t = (value as { t?: unknown }).t;
  return t === LOG_HEADER.t || (typeof t === 'string' && ENTRY_KINDS.has(t));
}

/** The bytes after the last newline (the last entry when it has no newline), with where they start. */
function tailAfterLastNewline(path: string, size: number): { start: number; text: string } {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(Math.min(size, 1 << 16));
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const at = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (at >= 0) {
        const from = start + at + 1;
        const tail = Buffer.alloc(size - from);
        readSync(fd, tail, 0, tail.length, from);
        return { start: from, text: tail.toString('utf8') };
      }
      end = start;
    }
    const all = Buffer.alloc(size);
    readSync(fd, all, 0, size, 0);
    return { start: 0, text: all.toString('utf8') };
  } finally {
    closeSync(fd);
  }
}

/**
 * Check that `path` may be used as the episode log, and repair a torn last entry of a real log:
 * a last line that is a whole JSON entry only lacks its newline (one is added); anything else
 * after the last newline is a write cut by a crash, never acknowledged, and is cut off.
 *
 * @throws `ParlInputError` (from `@parl/core`, field `logFile`) for a folder, a file in a missing
 *   folder, or a file that is not a PARL episode log (left as it is)
 */
export function prepareLogFile(path: string): LogFileState {
  let size: number;
  try {
    const info = statSync(path);
    if (info.isDirectory()) throw refuse(path, 'a file for the episode log, not a folder');
    if (!info.isFile()) throw refuse(path, 'a regular file for the episode log');
    size = info.size;
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code !== 'ENOENT') throw refuse(path, `a file that can be read (${code === undefined ? String(err) : String(code)})`);
    let folder: ReturnType<typeof statSync> | undefined;
    try {
      folder = statSync(dirname(path));
    } catch {
      folder = undefined;
    }
    if (folder === undefined || !folder.isDirectory()) throw refuse(path, `a file in an existing folder (${dirname(path)} does not exist)`);
    return { fresh: true, created: true, repaired: undefined };
  }
  if (size === 0) return { fresh: true, repaired: undefined };
  if (!isLogHead(firstLine(path, size))) {
    throw refuse(path, `a PARL episode log (its first line is ${JSON.stringify(LOG_HEADER)}): this file is something else and is left as it is; name a new file or an existing log`);
  }
  const tail = tailAfterLastNewline(path, size);
  if (tail.text === '') return { fresh: false, repaired: undefined };
  if (isWholeEntry(tail.text)) {
    const fd = openSync(path, 'a');
    try {
      writeSync(fd, '\n');
    } finally {
      closeSync(fd);
    }
    return { fresh: false, repaired: 'its last entry lacked the final newline, which was added' };
  }
  truncateSync(path, tail.start);
  return { fresh: tail.start === 0, repaired: `a torn last entry of ${size - tail.start} bytes (a write cut short, never acknowledged) was cut off` };
}

function isWholeEntry(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
