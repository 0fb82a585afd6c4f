/**
 * The append-only episode log: one JSON object per line, written (and, under the `always`
 * policy, fsynced) before the request that produced it is answered, and read back whole at start.
 *
 * Writes are group-committed: entries appended while a write is in flight go out together in
 * the next write, with one `fdatasync` for all of them, so concurrent requests share the cost
 * of durability.
 *
 * @module
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createReadStream, existsSync, statSync, truncateSync, openSync, readSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LogEntry } from './log-entry.js';

/**
 * When the log reaches the disk:
 * - `always` (default): each write is followed by `fdatasync` before the requests in it are
 *   answered; an acknowledged episode survives a crash of the process and of the machine;
 * - `interval`: written to the operating system before the answer, fsynced every
 *   `fsyncIntervalMs`; survives a crash of the process (kill -9), not of the machine;
 * - `never`: written to the operating system before the answer, never fsynced by the server.
 */
export type FsyncPolicy = 'always' | 'interval' | 'never';

interface Pending {
  readonly text: string | Uint8Array;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/** Figures about the log, for `/metrics`. */
export interface LogStats {
  /** Bytes written since start. */
  bytes: number;
  /** Writes (each possibly holding many entries). */
  writes: number;
  /** fdatasync calls. */
  fsyncs: number;
}

/**
 * Drop a torn last line (a write cut by a crash: never acknowledged, since the answer waits for
 * the write) so that the next entry starts on a line of its own.
 */
function cutTornTail(path: string): void {
  const size = statSync(path).size;
  if (size === 0) return;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(Math.min(size, 1 << 16));
    let end = size;
    // Walk back to the last newline.
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - start, start);
      const at = chunk.subarray(0, n).lastIndexOf(0x0a);
      if (at >= 0) {
        const keep = start + at + 1;
        if (keep !== size) truncateSync(path, keep);
        return;
      }
      end = start;
    }
    truncateSync(path, 0);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a batch of appends, in order, as one buffer (one write for all of them). */
function batchBytes(batch: readonly Pending[]): Uint8Array {
  if (batch.length === 1) {
    const only = (batch[0] as Pending).text;
    return typeof only === 'string' ? Buffer.from(only, 'utf8') : only;
  }
  return Buffer.concat(batch.map((p) => (typeof p.text === 'string' ? Buffer.from(p.text, 'utf8') : p.text)));
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
  readonly stats: LogStats = { bytes: 0, writes: 0, fsyncs: 0 };
  private queue: Pending[] = [];
  private writing = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private dirty = false;

  private constructor(
    private readonly file: FileHandle,
    private readonly policy: FsyncPolicy,
    intervalMs: number,
  ) {
    if (policy === 'interval') {
      this.timer = setInterval(() => void this.syncIfDirty(), intervalMs);
      this.timer.unref();
    }
  }

  /**
   * Read every entry of the log at `path` (a line that is not JSON, or whose entry `onEntry`
   * throws on, is passed to `onBadLine` and skipped), then open it for appending. A missing file is created.
   */
  static async open(
    path: string,
    policy: FsyncPolicy,
    intervalMs: number,
    onEntry: (entry: LogEntry) => void,
    onBadLine: (lineNo: number, why: string) => void,
  ): Promise<EpisodeLog> {
    if (existsSync(path)) {
      cutTornTail(path);
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
        try {
          onEntry(entry);
        } catch (err) {
          // An entry the server cannot use (a log edited by hand, or cut into): skipped, named.
          onBadLine(lineNo, err instanceof Error ? err.message : String(err));
        }
      }
    }
    const file = await open(path, 'a');
    return new EpisodeLog(file, policy, intervalMs);
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
      const bytes = batchBytes(batch);
      try {
        await writeAll(this.file, bytes);
        this.stats.bytes += bytes.byteLength;
        this.stats.writes += 1;
        if (this.policy === 'always') {
          await this.file.datasync();
          this.stats.fsyncs += 1;
        } else {
          this.dirty = true;
        }
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.writing = false;
  }

  private async syncIfDirty(): Promise<void> {
    if (!this.dirty || this.closed) return;
    this.dirty = false;
    await this.file.datasync();
    this.stats.fsyncs += 1;
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
}
