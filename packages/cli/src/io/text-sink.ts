/**
 * Where text output goes: a stream (stdout) or a file written atomically (a temp file in the same
 * folder, renamed over the final name only when the run succeeds).
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError, describeFsError } from '../errors.js';
import { tempPaths } from './exit-cleanup.js';

/** A destination for text, written in order, then finished (kept) or aborted (dropped where possible). */
export interface TextSink {
  /** Append text; resolves when the sink can take more (backpressure). */
  write(text: string): Promise<void>;
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
    async write(text: string): Promise<void> {
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
 * @throws {@link CliError} when the temp file cannot be created (missing folder, permissions)
 */
export async function atomicFileSink(finalPath: string, flag = '--out'): Promise<TextSink> {
  const tempPath = tempPathFor(finalPath);
  let handle: FileHandle;
  try {
    handle = await open(tempPath, 'wx');
  } catch (err) {
    throw new CliError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`);
  }
  tempPaths.add(tempPath);
  let pending = '';
  let closed = false;
  const flush = async (): Promise<void> => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    try {
      await handle.write(chunk);
    } catch (err) {
      throw new CliError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`, 1);
    }
  };
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    target: finalPath,
    async write(text: string): Promise<void> {
      pending += text;
      if (pending.length >= CHUNK_CHARS) await flush();
    },
    async finish(): Promise<void> {
      try {
        await flush();
        await close();
        await rename(tempPath, finalPath);
      } catch (err) {
        await close().catch(() => undefined);
        await unlink(tempPath).catch(() => undefined);
        throw new CliError(`cannot write ${flag} ${finalPath}: ${describeFsError(err)}`, 1);
      } finally {
        tempPaths.delete(tempPath);
      }
    },
    async abort(): Promise<void> {
      pending = '';
      await close().catch(() => undefined);
      await unlink(tempPath).catch(() => undefined);
      tempPaths.delete(tempPath);
    },
  };
}

/**
 * Write a whole file atomically (temp file in the same folder, then rename).
 *
 * @example
 * ```ts
 * await writeFileAtomic('runs/a/report.html', html);
 * ```
 */
export async function writeFileAtomic(finalPath: string, content: string, flag = '--out'): Promise<void> {
  const sink = await atomicFileSink(finalPath, flag);
  try {
    await sink.write(content);
  } catch (err) {
    await sink.abort();
    throw err;
  }
  await sink.finish();
}

/** A sink to `path` (atomic) when given, else to `stream`. */
export async function openTextSink(path: string | undefined, stream: NodeJS.WritableStream, flag = '--out'): Promise<TextSink> {
  return path === undefined ? streamSink(stream) : atomicFileSink(path, flag);
}
