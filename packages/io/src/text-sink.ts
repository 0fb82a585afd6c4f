/**
 * Where text output goes: a stream (stdout) or a file written atomically (a temp file in the same
 * folder, renamed over the final name only when the run succeeds).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ParlIoError, describeFsError } from './errors.js';
import { tempPaths } from './exit-cleanup.js';

/** A destination for text, written in order, then finished (kept) or aborted (dropped where possible). */
export interface TextSink {
  /** Append text (or bytes, for a binary format); resolves when the sink can take more (backpressure). */
  write(text: string | Uint8Array): Promise<void>;
  /** Flush and keep the output (for a file: rename the temp file to its final name). */
  finish(): Promise<void>;
  /** Give up: for a file, delete the temp file so nothing appears under the final name. */
  abort(): Promise<void>;
  /** Where the output goes, for messages: a path or `stdout`. */
  readonly target: string;
}

/** Text is gathered into chunks of about this many characters before it is written. */
const CHUNK_CHARS = 1 << 16;

/**
 * A sink over a writable stream (stdout). Text is gathered into 64 KiB chunks; a chunk the stream
 * cannot take yet waits for `drain`, so memory stays bounded however much is written. The stream
 * is not ended by {@link TextSink.finish}.
 */
export function streamSink(stream: NodeJS.WritableStream, target = 'stdout'): TextSink {
  let pending = '';
  const flush = async (): Promise<void> => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    if (!stream.write(chunk)) {
      await new Promise<void>((resolve) => stream.once('drain', resolve));
    }
  };
  return {
    target,
    async write(text: string | Uint8Array): Promise<void> {
      if (typeof text !== 'string') {
        await flush();
        if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
        return;
      }
      pending += text;
      if (pending.length >= CHUNK_CHARS) await flush();
    },
    finish: flush,
    async abort(): Promise<void> {
      pending = '';
    },
  };
}

/** The temp name used for `finalPath` while it is being written: a hidden file in the same folder. */
export function tempPathFor(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Open a sink that writes `finalPath` atomically: everything goes to a temp file in the same
 * folder, which {@link TextSink.finish} renames to `finalPath` and {@link TextSink.abort} deletes.
 * A failed run therefore never leaves a partial file under the final name.
 *
 * @param finalPath - the output file
 * @param flag - the flag that named it, for error messages (`--out`)
 * @throws {@link ParlIoError} when the temp file cannot be created (missing folder, permissions)
 */
export async function atomicFileSink(finalPath: string, flag = '--out'): Promise<TextSink> {
  const tempPath = tempPathFor(finalPath);
  let handle: FileHandle;
  try {
    handle = await open(tempPath, 'wx');
  } catch (err) {
    throw new ParlIoError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`);
  }
  tempPaths.add(tempPath);
  let pending = '';
  let closed = false;
  // One write in flight while the caller prepares the next chunk: writing overlaps the work
  // that produces the output, and memory holds at most two chunks.
  let writing: Promise<void> = Promise.resolve();
  const settle = async (): Promise<void> => {
    try {
      await writing;
    } catch (err) {
      throw new ParlIoError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`, 1);
    }
  };
  const start = async (chunk: string | Uint8Array): Promise<void> => {
    await settle();
    writing = (typeof chunk === 'string' ? handle.write(chunk) : handle.write(chunk)).then(() => undefined);
    writing.catch(() => undefined);
  };
  const flush = async (): Promise<void> => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    await start(chunk);
  };
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    target: finalPath,
    async write(text: string | Uint8Array): Promise<void> {
      if (typeof text !== 'string') {
        await flush();
        await start(text);
        return;
      }
      pending += text;
      if (pending.length >= CHUNK_CHARS) await flush();
    },
    async finish(): Promise<void> {
      try {
        await flush();
        await settle();
        await close();
        await rename(tempPath, finalPath);
      } catch (err) {
        await close().catch(() => undefined);
        await unlink(tempPath).catch(() => undefined);
        throw err instanceof ParlIoError ? err : new ParlIoError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`, 1);
      } finally {
        tempPaths.delete(tempPath);
      }
    },
    async abort(): Promise<void> {
      pending = '';
      await writing.catch(() => undefined);
      await close().catch(() => undefined);
      await unlink(tempPath).catch(() => undefined);
      tempPaths.delete(tempPath);
    },
  };
}

/**
 * Write a whole file atomically (temp file in the same folder, then rename); a device or FIFO is
 * written in place.
 *
 * @example
 * ```ts
 * import { mkdirSync, readFileSync } from 'node:fs';
 * mkdirSync('runs/a', { recursive: true });
 * await writeFileAtomic('runs/a/report.html', '<!doctype html><title>report</title>');
 * readFileSync('runs/a/report.html', 'utf8').length; // 36
 * ```
 */
export async function writeFileAtomic(finalPath: string, content: string, flag = '--out'): Promise<void> {
  const sink = await openFileSink(finalPath, flag);
  try {
    await sink.write(content);
  } catch (err) {
    await sink.abort();
    throw err;
  }
  await sink.finish();
}

/**
 * A sink over an existing device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe): it
 * is written in place, since renaming a temp file over it would replace the device with a file.
 */
async function specialFileSink(path: string, flag: string): Promise<TextSink> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'w');
  } catch (err) {
    throw new ParlIoError(`cannot write ${flag} ${path}: ${describeFsError(err)}`);
  }
  const stream = handle.createWriteStream();
  const failed = new Promise<never>((_, reject) => {
    stream.once('error', (err) => reject(new ParlIoError(`cannot write ${flag} ${path}: ${describeFsError(err)}`, 1)));
  });
  failed.catch(() => undefined);
  const inner = streamSink(stream, path);
  const end = (): Promise<void> => Promise.race([new Promise<void>((resolve) => stream.end(resolve)), failed]);
  return {
    target: path,
    write: (text) => Promise.race([inner.write(text), failed]),
    async finish(): Promise<void> {
      await Promise.race([inner.finish(), failed]);
      await end();
    },
    async abort(): Promise<void> {
      await inner.abort();
      await end().catch(() => undefined);
    },
  };
}

/** The kind of thing at `path`: nothing, a regular file, a folder, or a device/FIFO/socket. */
async function pathKind(path: string): Promise<'none' | 'file' | 'directory' | 'special'> {
  try {
    const info = await stat(path);
    return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'special';
  } catch {
    return 'none';
  }
}

/** A sink to `path` when given, else to `stream` (see {@link openFileSink}). */
export async function openTextSink(path: string | undefined, stream: NodeJS.WritableStream, flag = '--out'): Promise<TextSink> {
  return path === undefined ? streamSink(stream) : openFileSink(path, flag);
}

/**
 * A sink to the output file `path`: a new or regular file is written atomically
 * ({@link atomicFileSink}); an existing device, FIFO or socket (`/dev/null`, a named pipe) is
 * written in place, never replaced; a folder is an error.
 *
 * @throws {@link ParlIoError} when `path` is a folder or cannot be opened
 */
export async function openFileSink(path: string, flag = '--out'): Promise<TextSink> {
  switch (await pathKind(path)) {
    case 'special':
      return specialFileSink(path, flag);
    case 'directory':
      throw new ParlIoError(`cannot write ${flag} ${path}: is a directory`);
    default:
      return atomicFileSink(path, flag);
  }
}
