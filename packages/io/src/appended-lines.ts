/**
 * Files of lines written one append at a time (`<path>.partial` while a run goes, so that a crash
 * leaves the lines finished so far and the next run resumes them): the one owner of reading such a
 * file as a stream with each line's place, telling a last line that a crash tore off (any prefix of
 * a line of ours, down to its first byte) from foreign text, cutting it off, appending, and reading
 * one line back by its place. The swarm's rollout and spans files are written with it.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { appendFile, open, stat, truncate, writeFile } from 'node:fs/promises';
import { LineReader, type LinePlace } from './input-lines.js';

/** The name a file has while it is being appended to: `<path>.partial`. */
export function partialPathOf(path: string): string {
  return `${path}.partial`;
}

/** One line of an appended file, with its place. */
export interface AppendedLine extends LinePlace {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's text without its line break; undefined when its bytes are not UTF-8. */
  readonly text: string | undefined;
  /**
   * A last line without its LF whose bytes begin as every line of the file does (`lineStart`), or
   * are a prefix of that beginning: what an append interrupted by a crash leaves. Always false for
   * a line that an LF ends.
   */
  readonly torn: boolean;
}

/**
 * The lines of the file at `path`, in order, read as a stream (one line in memory at a time); none
 * when the file does not exist. `lineStart` is how every line of the file begins (such as
 * `{"group_id":`): a last line cut short is `torn` when it agrees with it, whatever byte it was cut
 * at (a cut inside `lineStart` itself, or inside a multi-byte character, included).
 */
export async function* appendedLines(path: string, lineStart: string): AsyncGenerator<AppendedLine> {
  const reader = new LineReader(createReadStream(path));
  const start = Buffer.from(lineStart, 'utf8');
  for (;;) {
    let line;
    try {
      line = await reader.nextLine();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (line === undefined) return;
    const place = reader.placeOfLastLine();
    const torn = !place.complete && (await agreesWith(path, place, start));
    yield { lineNo: line.lineNo, text: line.text, ...place, torn };
  }
}

/** Whether the bytes at `place` begin with `start`, or are a prefix of it. */
async function agreesWith(path: string, place: LinePlace, start: Buffer): Promise<boolean> {
  const head = await readBytesAt(path, place.offset, Math.min(place.bytes, start.length));
  return head.equals(start.subarray(0, head.length));
}

async function readBytesAt(path: string, offset: number, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    let read = 0;
    while (read < bytes) {
      const { bytesRead } = await handle.read(buffer, read, bytes - read, offset + read);
      if (bytesRead === 0) throw new Error(`${path} ended before byte ${offset + bytes}: was it changed while the run was going?`);
      read += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

/** The text of the line at `place` of the file at `path` (as {@link appendedLines} gave it). */
export async function readAppendedLine(path: string, place: Pick<LinePlace, 'offset' | 'bytes'>): Promise<string> {
  return (await readBytesAt(path, place.offset, place.bytes)).toString('utf8');
}

/** A file open for appending one line at a time. */
export interface LineAppender {
  /** The file. */
  readonly path: string;
  /** Append `text` and an LF in one write; where the line went. */
  append(text: string): Promise<LinePlace>;
}

/** How to open a {@link LineAppender}. */
export interface OpenLineAppenderOptions {
  /**
   * Keep the lines already there and append after them (a resumed run; the file is created by the
   * first append when missing); else the file is emptied, or created empty, now.
   */
  readonly keep: boolean;
  /** A torn last line to cut off first (from {@link appendedLines}); only with `keep`. */
  readonly torn?: AppendedLine | undefined;
  /** Sync each line to disk (`fdatasync`) before its append resolves: the line survives a crash of the machine. */
  readonly durable?: boolean;
}

/** Open the file at `path` for appending lines. */
export async function openLineAppender(path: string, options: OpenLineAppenderOptions): Promise<LineAppender> {
  let size = 0;
  if (options.keep) {
    if (options.torn !== undefined) await truncate(path, options.torn.offset);
    size = await stat(path).then(
      (s) => s.size,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return 0;
        throw err;
      },
    );
  } else {
    await writeFile(path, '');
  }
  return {
    path,
    async append(text) {
      const bytes = Buffer.byteLength(text);
      const offset = size;
      if (options.durable === true) {
        const handle = await open(path, 'a');
        try {
          await handle.appendFile(`${text}\n`);
          await handle.datasync();
        } finally {
          await handle.close();
        }
      } else {
        await appendFile(path, `${text}\n`);
      }
      size += bytes + 1;
      return { offset, bytes, complete: true };
    },
  };
}
