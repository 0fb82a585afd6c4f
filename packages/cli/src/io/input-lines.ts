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

/** One line of the input: its text (without the line break), or why it is not text. */
export interface InputLine {
  /** 1-based line number. */
  readonly lineNo: number;
  /** The line's text without LF or CRLF; undefined when the bytes are not valid UTF-8. */
  readonly text: string | undefined;
}

/** Bytes, or text (encoded as UTF-8), from any readable stream. */
export function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), 'utf8');
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A reader of lines over a byte stream that can hand the rest of the stream back unread, so a
 * caller can look at the first line and then stream the remaining bytes to another parser.
 */
export class LineReader {
  private readonly chunks: AsyncIterator<unknown>;
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;
  private ended = false;
  private lineNo = 0;
  private atStart = true;

  /** @param input - the byte (or text) stream to read */
  constructor(input: AsyncIterable<unknown>) {
    this.chunks = input[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    const chunk = toBuffer(next.value);
    const rest = this.buffer.subarray(this.offset);
    this.buffer = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    this.offset = 0;
    if (this.atStart && this.buffer.length >= 3) this.dropBom();
    return true;
  }

  /** Read until a byte-order mark can be told apart (3 bytes, or the end of a shorter input). */
  private async settleStart(): Promise<void> {
    while (this.atStart && (await this.fill()));
    if (this.atStart) this.dropBom();
  }

  private dropBom(): void {
    this.atStart = false;
    if (this.buffer[0] === 0xef && this.buffer[1] === 0xbb && this.buffer[2] === 0xbf) this.offset = 3;
  }

  /** The first byte that is not JSON whitespace, without consuming anything; undefined at the end. */
  async peekNonBlank(): Promise<number | undefined> {
    await this.settleStart();
    for (;;) {
      for (let i = this.offset; i < this.buffer.length; i++) {
        const b = this.buffer[i] as number;
        if (b !== 0x20 && b !== 0x09 && b !== LF && b !== CR) return b;
      }
      if (!(await this.fill())) return undefined;
    }
  }

  /** The next line, or undefined at the end of the input. */
  async nextLine(): Promise<InputLine | undefined> {
    await this.settleStart();
    for (;;) {
      const nl = this.buffer.indexOf(LF, this.offset);
      if (nl >= 0) return this.take(nl, nl + 1);
      if (!(await this.fill())) {
        if (this.offset >= this.buffer.length) return undefined;
        return this.take(this.buffer.length, this.buffer.length);
      }
    }
  }

  private take(end: number, next: number): InputLine {
    let stop = end;
    if (stop > this.offset && this.buffer[stop - 1] === CR && next > end) stop--;
    const bytes = this.buffer.subarray(this.offset, stop);
    this.offset = next;
    this.lineNo++;
    return { lineNo: this.lineNo, text: isUtf8(bytes) ? bytes.toString('utf8') : undefined };
  }

  /** Everything not yet read as lines: the buffered bytes, then the rest of the stream. */
  async *rest(): AsyncGenerator<Buffer> {
    await this.settleStart();
    const buffered = this.buffer.subarray(this.offset);
    this.buffer = Buffer.alloc(0);
    this.offset = 0;
    if (buffered.length > 0) yield buffered;
    while (!this.ended) {
      const next = await this.chunks.next();
      if (next.done === true) {
        this.ended = true;
        return;
      }
      yield toBuffer(next.value);
    }
  }

  /** Lines read so far. */
  get linesRead(): number {
    return this.lineNo;
  }
}
