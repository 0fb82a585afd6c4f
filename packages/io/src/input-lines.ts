/**
 * Splitting a byte stream into lines the way JSONL defines them: on LF only (a CR before the LF
 * is dropped; a lone CR is ordinary whitespace inside a record), each line checked to be UTF-8.
 *
 * `readline` is not used because it also breaks lines at a lone CR, which would split a valid
 * record in two and shift every later line number.
 *
 * @module
 */
import { isUtf8 } from 'node:buffer';
import { ParlInputError } from '@parl/core';

/** The longest line read by default: 256 MiB, about half of the longest string V8 can hold. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** One line of the input: its text (without the line break), or why it is not text. */
export interface InputLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's text without LF or CRLF; undefined when the bytes are not valid UTF-8. */
  readonly text: string | undefined;
}

/** Where a line lies in the bytes read: what lets a file's line be read back, or a torn last line cut off. */
export interface LinePlace {
  /** Byte offset of the line's first byte (a byte-order mark before it counted). */
  readonly offset: number;
  /** The line's bytes, without its LF (a CR before the LF counted). */
  readonly bytes: number;
  /** Whether an LF ends it (false only for a last line that the input cut short). */
  readonly complete: boolean;
}

/** Bytes, or text (encoded as UTF-8), from any readable stream. */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), 'utf8');
}

/** The error for line `lineNo`, which runs past `maxLineBytes` without ending. */
export function lineTooLongError(maxLineBytes: number, lineNo: number): ParlInputError {
  return new ParlInputError('record', `a line of over ${maxLineBytes} bytes`, `at most ${maxLineBytes} bytes long (is this a JSONL file?)`, `line ${lineNo}`);
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A reader of lines over a byte stream that can hand the rest of the stream back unread, so a
 * caller can look at the first line and then stream the remaining bytes to another parser.
 * A line spread over many chunks is joined once, when its end is found (linear in its length).
 */
export class LineReader {
  private readonly chunks: AsyncIterator<unknown>;
  private readonly maxLineBytes: number;
  /** The chunk being read, from {@link offset}. */
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;
  /** Earlier pieces of a line whose end has not been seen yet. */
  private head: Buffer[] = [];
  private headBytes = 0;
  private ended = false;
  private lineNo = 0;
  private atStart = true;
  /** Where the next line starts, and the place of the line read last (see {@link placeOfLastLine}). */
  private nextOffset = 0;
  private lastOffset = 0;
  private lastBytes = 0;
  private lastComplete = true;

  /**
   * @param input - the byte (or text) stream to read
   * @param maxLineBytes - longest line accepted (default {@link MAX_LINE_BYTES}); a longer one, such
   *   as `/dev/zero` or a binary file read by mistake, is an error instead of unbounded memory
   */
  constructor(input: AsyncIterable<unknown>, maxLineBytes = MAX_LINE_BYTES) {
    this.chunks = input[Symbol.asyncIterator]();
    this.maxLineBytes = maxLineBytes;
  }

  /** Read the next chunk into {@link buffer}; false at the end of the input. */
  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    this.buffer = toBuffer(next.value);
    this.offset = 0;
    return true;
  }

  /** Append the next chunk to what is left of the current one (for short look-aheads only). */
  private async extend(): Promise<boolean> {
    const rest = this.buffer.subarray(this.offset);
    if (!(await this.fill())) {
      this.buffer = rest;
      this.offset = 0;
      return false;
    }
    this.buffer = Buffer.concat([rest, this.buffer]);
    return true;
  }

  /** Read until a byte-order mark can be told apart (3 bytes, or the end of a shorter input), and drop it. */
  private async settleStart(): Promise<void> {
    if (!this.atStart) return;
    this.atStart = false;
    while (this.buffer.length - this.offset < 3 && (await this.extend()));
    const b = this.buffer;
    const o = this.offset;
    if (b[o] === 0xef && b[o + 1] === 0xbb && b[o + 2] === 0xbf) {
      this.offset += 3;
      this.nextOffset = 3;
    }
  }

  /** The first byte that is not JSON whitespace, without consuming anything; undefined at the end. */
  async peekNonBlank(): Promise<number | undefined> {
    await this.settleStart();
    let from = this.offset;
    for (;;) {
      for (let i = from; i < this.buffer.length; i++) {
        const b = this.buffer[i] as number;
        if (b !== 0x20 && b !== 0x09 && b !== LF && b !== CR) return b;
      }
      from = this.buffer.length - this.offset;
      if (!(await this.extend())) return undefined;
      from += this.offset;
    }
  }

  /**
   * The unread bytes up to the end of the first line that holds a non-blank byte, without
   * consuming them: fewer when the input ends first (`atEnd`), or at least `maxBytes` when that
   * line is longer.
   */
  async peekHead(maxBytes: number): Promise<{ head: Buffer; atEnd: boolean }> {
    await this.settleStart();
    let from = this.offset;
    for (;;) {
      let i = from;
      while (i < this.buffer.length) {
        const b = this.buffer[i] as number;
        if (b !== 0x20 && b !== 0x09 && b !== LF && b !== CR) break;
        i++;
      }
      if (i < this.buffer.length) {
        const nl = this.buffer.indexOf(LF, i);
        if (nl >= 0) return { head: this.buffer.subarray(this.offset, nl + 1), atEnd: false };
      }
      if (this.buffer.length - this.offset >= maxBytes) return { head: this.buffer.subarray(this.offset), atEnd: false };
      from = this.buffer.length - this.offset;
      if (!(await this.extend())) return { head: this.buffer.subarray(this.offset), atEnd: true };
      from += this.offset;
    }
  }

  /** The next line, or undefined at the end of the input. */
  async nextLine(): Promise<InputLine | undefined> {
    await this.settleStart();
    for (;;) {
      const nl = this.buffer.indexOf(LF, this.offset);
      if (nl >= 0) {
        const piece = this.buffer.subarray(this.offset, nl);
        this.offset = nl + 1;
        return this.line(piece, true);
      }
      if (this.offset < this.buffer.length) {
        const piece = this.buffer.subarray(this.offset);
        this.head.push(piece);
        this.headBytes += piece.length;
        this.offset = this.buffer.length;
      }
      if (this.headBytes > this.maxLineBytes) throw lineTooLongError(this.maxLineBytes, this.lineNo + 1);
      if (!(await this.fill())) {
        if (this.headBytes === 0) return undefined;
        return this.line(Buffer.alloc(0), false);
      }
    }
  }

  /** The line made of the pending head pieces and `last`; a CR before the LF is dropped. */
  private line(last: Buffer, endedByLf: boolean): InputLine {
    let bytes = last;
    if (this.head.length > 0) {
      this.head.push(last);
      bytes = Buffer.concat(this.head);
      this.head = [];
      this.headBytes = 0;
    }
    this.lastOffset = this.nextOffset;
    this.lastBytes = bytes.length;
    this.lastComplete = endedByLf;
    this.nextOffset += bytes.length + (endedByLf ? 1 : 0);
    if (endedByLf && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    this.lineNo++;
    return { lineNo: this.lineNo, text: isUtf8(bytes) ? bytes.toString('utf8') : undefined };
  }

  /** Everything not yet read as lines: the buffered bytes, then the rest of the stream. */
  async *rest(): AsyncGenerator<Buffer> {
    await this.settleStart();
    const pending = [...this.head, this.buffer.subarray(this.offset)];
    this.head = [];
    this.headBytes = 0;
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
    for (const piece of pending) if (piece.length > 0) yield piece;
    while (await this.fill()) yield this.buffer;
    this.buffer = Buffer.alloc(0);
  }

  /** Where the line that {@link nextLine} returned last lies in the input (meaningless before the first, or after {@link rest}). */
  placeOfLastLine(): LinePlace {
    return { offset: this.lastOffset, bytes: this.lastBytes, complete: this.lastComplete };
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.lineNo;
  }
}
