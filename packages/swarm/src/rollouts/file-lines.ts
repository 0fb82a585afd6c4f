/**
 * The lines of a JSONL file with their byte places, read as a stream (one line in memory at a
 * time), and one line read back by its place: what lets the rollout and spans files be resumed
 * and written out group by group without holding them.
 *
 * @module
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** One line of a file. */
export interface FileLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's text, without its newline. */
  readonly text: string;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Bytes of the line, without its newline. */
  readonly bytes: number;
  /** Whether a newline ends it (false only for a last line cut short). */
  readonly complete: boolean;
}

const LF = 0x0a;

/** The lines of the file at `path`, in order; none when the file does not exist. */
export async function* fileLines(path: string): AsyncGenerator<FileLine> {
  const stream = createReadStream(path);
  let pieces: Buffer[] = [];
  let pending = 0;
  let offset = 0;
  let lineNo = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, start)) {
        const piece = chunk.subarray(start, i);
        const bytes = pending + piece.length;
        const text = (pieces.length === 0 ? piece : Buffer.concat([...pieces, piece])).toString('utf8');
        yield { lineNo: ++lineNo, text, offset, bytes, complete: true };
        offset += bytes + 1;
        pieces = [];
        pending = 0;
        start = i + 1;
      }
      if (start < chunk.length) {
        pieces.push(chunk.subarray(start));
        pending += chunk.length - start;
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (pending > 0) yield { lineNo: ++lineNo, text: Buffer.concat(pieces).toString('utf8'), offset, bytes: pending, complete: false };
}

/** The text of the line at `offset` (of `bytes` bytes) of the file at `path`. */
export async function readLineAt(path: string, offset: number, bytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    let read = 0;
    while (read < bytes) {
      const { bytesRead } = await handle.read(buffer, read, bytes - read, offset + read);
      if (bytesRead === 0) throw new Error(`${path} ended before byte ${offset + bytes}: was it changed while the run was going?`);
      read += bytesRead;
    }
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
