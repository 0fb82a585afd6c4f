/**
 * A growing byte buffer a labeller writes its output into record by record, so that each
 * record's string dies young instead of being held until the whole input is done.
 *
 * @module
 */

/**
 * A growing buffer the chunk's output is written into line by line: each line's string dies
 * young instead of being held (with the pieces it was concatenated from) until the chunk ends.
 */
export class OutputBytes {
  private buffer: Buffer;
  private length = 0;

  /** @param capacity - bytes to start with (the buffer grows by doubling). */
  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  /** Room for `more` bytes. */
  private reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + more));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  /** Bytes written so far (the offset the next write lands at). */
  get byteLength(): number {
    return this.length;
  }

  /** Append one byte. */
  writeByte(byte: number): void {
    this.reserve(1);
    this.buffer[this.length++] = byte;
  }

  /** Append `text` as UTF-8. */
  writeText(text: string): void {
    // At most 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** Append `text` (or its first `count` characters), known to be ASCII: a byte per character, no UTF-8 encoding. */
  writeAscii(text: string, count = text.length): void {
    this.reserve(count);
    this.length += this.buffer.write(text, this.length, count, 'latin1');
  }

  /** Append `source`'s bytes from `start` to `end`. */
  copyBytes(source: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    this.length += source.copy(this.buffer, this.length, start, end);
  }

  /** The bytes written, over a buffer of their own (it can be transferred to another thread). */
  bytes(): Uint8Array {
    return new Uint8Array(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }
}
