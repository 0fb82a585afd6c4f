/**
 * The append-only episode log: one JSON object per line, written (and, under the `always`
 * policy, fsynced) before the request that produced it is answered, and read back whole at start.
 *
 * Writes are group-committed: entries appended while a write is in flight go out together in
 * the next write, with one `fdatasync` for all of them, so concurrent requests share the cost
 * of durability.
 *
 * A write that fails (file-size limit, full disk, I/O error) is cut back off the file, to the end
 * of the last whole entry, and the requests in it fail (answered 503): the next acknowledged
 * entry never lands on a partial line. Should even that cut fail, every later append fails too.
 * The first line is the header `{"t":"parl-episode-log","v":1}` (see log-file.ts).
 *
 * @module
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LogEntry } from '../episodes/log-entry.js';
import { LOG_HEADER, LOG_HEADER_LINE, prepareLogFile } from '../episodes/log-file.js';

import type { FsyncPolicy } from '../episodes/fsync-policy.js';
import type { LogStats } from '../episodes/log-stats.js';

interface Pending {
  readonly text: string | Uint8Array;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}


/** The error a failed log write rejects with: answered 503, naming the cause. */
export class LogWriteError extends Error {
  /** HTTP status of the request whose entries could not be logged. */
  readonly statusCode = 503;

  /** @param cause - the file system's error */
  constructor(override readonly cause: unknown) {
    const code = (cause as { code?: unknown }).code;
    super(`the episode log could not be written (${typeof code === 'string' ? `${code}: ` : ''}${cause instanceof Error ? cause.message : String(cause)}); nothing of this request was kept`);
    this.name = 'LogWriteError';
  }
}

/** The bytes of a batch of appends, in order, as one buffer (one write for all of them). */
function batchBytes(batch: readonly Pending[]): Uint8Array[] {
  // Written as they are, one write of many buffers: joining them would copy every pending body's
  // lines (a group commit of several 16 MiB requests) on the event loop.
  return batch.map((p) => (typeof p.text === 'string' ? Buffer.from(p.text, 'utf8') : p.text));
}

/** Write all of `chunks`, in order, at the end of the file (one `writev`; a short write goes on where it stopped). */
async function writeAllChunks(file: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let rest = chunks.filter((c) => c.byteLength > 0);
  while (rest.length > 0) {
    let { bytesWritten } = await file.writev(rest);
    const left: Uint8Array[] = [];
    for (const chunk of rest) {
      if (bytesWritten >= chunk.byteLength) bytesWritten -= chunk.byteLength;
      else {
        left.push(bytesWritten === 0 ? chunk : chunk.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    rest = left;
  }
}

/** Write all of `bytes` at the end of the file (a short write goes on where it stopped). */
async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.byteLength) {
    const { bytesWritten } = await file.write(bytes, at, bytes.byteLength - at);
    at += bytesWritten;
  }
}

/** The append-only JSONL log. Open it with {@link EpisodeLog.open}. */
export class EpisodeLog {
  /** Figures for `/metrics`. */
  readonly stats: LogStats = { bytes: 0, writes: 0, fsyncs: 0, failedWrites: 0 };
  /** Set when a failed write could not be cut back: no append is safe after it. */
  private broken: LogWriteError | undefined;
  private queue: Pending[] = [];
  private writing = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private dirty = false;

  private constructor(
    private readonly file: FileHandle,
    private readonly policy: FsyncPolicy,
    intervalMs: number,
    /** Bytes of whole entries in the file: where a failed write is cut back to. */
    private size: number,
    /** The path, when this open created the file (see {@link EpisodeLog.abandon}). */
    private readonly createdPath: string | undefined,
  ) {
    if (policy === 'interval') {
      this.timer = setInterval(() => void this.syncIfDirty(), intervalMs);
      this.timer.unref();
    }
  }

  /**
   * Check `path` (see `prepareLogFile`: a folder, a missing folder or a file that is not an episode
   * log is refused untouched; a torn last entry is repaired, and `onRepair` told), read every entry
   * (a line that is not JSON, or whose entry `onEntry` throws on, is passed to `onBadLine` and
   * skipped), then open it for appending. A missing or empty file is created with the header line.
   *
   * @throws `ParlInputError` (from `@parl/core`, field `logFile`) for a path that cannot be the log
   */
  static async open(
    path: string,
    policy: FsyncPolicy,
    intervalMs: number,
    onEntry: (entry: LogEntry) => void,
    onBadLine: (lineNo: number, why: string) => void,
    onRepair: (what: string) => void = () => {},
  ): Promise<EpisodeLog> {
    const state = prepareLogFile(path);
    if (state.repaired !== undefined) onRepair(state.repaired);
    if (!state.fresh) {
      const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
      let lineNo = 0;
      for await (const line of lines) {
        lineNo += 1;
        if (line.trim() === '') continue;
        let entry: LogEntry;
        try {
          entry = JSON.parse(line) as LogEntry;
        } catch (err) {
          onBadLine(lineNo, err instanceof Error ? err.message : String(err));
          continue;
        }
        if (lineNo === 1 && (entry as { t?: unknown }).t === LOG_HEADER.t) continue;
        try {
          onEntry(entry);
        } catch (err) {
          // An entry the server cannot use (a log edited by hand, or cut into): skipped, named.
          onBadLine(lineNo, err instanceof Error ? err.message : String(err));
        }
      }
    }
    const file = await open(path, 'a');
    try {
      if (state.fresh) {
        await writeAll(file, Buffer.from(LOG_HEADER_LINE));
        await file.datasync();
      }
      const { size } = await file.stat();
      return new EpisodeLog(file, policy, intervalMs, size, state.created === true ? path : undefined);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** Append entries; resolves once they are written (and fsynced under `always`). */
  append(entries: readonly LogEntry[]): Promise<void> {
    let text = '';
    for (const e of entries) text += `${JSON.stringify(e)}\n`;
    return this.appendLines(text);
  }

  /**
   * Append lines already written as JSON (each ending in `\n`, as `rewardLogLine` of log-entry.ts
   * makes them), as text or UTF-8 bytes (not to be changed afterwards); resolves as
   * {@link EpisodeLog.append} does. Empty text resolves at once.
   */
  appendLines(text: string | Uint8Array): Promise<void> {
    if (text.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('the episode log is closed'));
    if (this.broken !== undefined) return Promise.reject(this.broken);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ text, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const chunks = batchBytes(batch);
      let length = 0;
      for (const c of chunks) length += c.byteLength;
      if (this.broken !== undefined) {
        for (const p of batch) p.reject(this.broken);
        continue;
      }
      try {
        await writeAllChunks(this.file, chunks);
        if (this.policy === 'always') {
          await this.file.datasync();
          this.stats.fsyncs += 1;
        } else {
          this.dirty = true;
        }
        this.size += length;
        this.stats.bytes += length;
        this.stats.writes += 1;
        for (const p of batch) p.resolve();
      } catch (err) {
        const failure = new LogWriteError(err);
        this.stats.failedWrites += 1;
        await this.cutBack(failure);
        for (const p of batch) p.reject(failure);
      }
    }
    this.writing = false;
  }

  /** Cut a failed write's bytes off the file; when that fails too, no later append is let through. */
  private async cutBack(failure: LogWriteError): Promise<void> {
    try {
      await this.file.truncate(this.size);
    } catch {
      this.broken = failure;
    }
  }

  private async syncIfDirty(): Promise<void> {
    if (!this.dirty || this.closed) return;
    this.dirty = false;
    try {
      await this.file.datasync();
      this.stats.fsyncs += 1;
    } catch {
      // Written to the operating system already (the interval policy's promise); tried again next tick.
      this.dirty = true;
    }
  }

  /** Wait for pending writes, fsync, and close the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    while (this.writing || this.queue.length > 0) await new Promise((r) => setImmediate(r));
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.policy !== 'never') await this.file.datasync();
    await this.file.close();
  }

  /**
   * Close, and remove the file when this open created it and nothing but the header was written
   * to it: a server that fails to start (a busy port) leaves no file behind that it made.
   */
  async abandon(): Promise<void> {
    await this.close();
    if (this.createdPath !== undefined && this.size === Buffer.byteLength(LOG_HEADER_LINE)) await rm(this.createdPath, { force: true });
  }
}
