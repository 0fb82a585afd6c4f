/**
 * Where the lines of a byte stream start, counted as a text editor counts them: `\r\n`, `\n` and a
 * lone `\r` are each one line break, inside quotes or not. A pass-through stream that notes the
 * byte offset and line number of each non-empty line, so that a parser that reports byte offsets
 * (csv-parse's `info.bytes`) can name the line where a row starts (spec §10.1).
 *
 * @module
 */
import { Transform, type TransformCallback } from 'node:stream';

/** A stream that passes its bytes through and remembers where each non-empty line starts. */
export class LineStarts extends Transform {
  /** Non-empty lines not yet asked about: byte offset of their first byte, and their 1-based number. */
  private readonly starts: { offset: number; line: number }[] = [];
  private head = 0;
  private offset = 0;
  private line = 1;
  private atLineStart = true;
  private afterCR = false;

  /** @inheritdoc */
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === 0x0d) {
        this.line++;
        this.atLineStart = true;
        this.afterCR = true;
      } else if (b === 0x0a) {
        if (!this.afterCR) this.line++;
        this.atLineStart = true;
        this.afterCR = false;
      } else {
        if (this.atLineStart) this.starts.push({ offset: this.offset + i, line: this.line });
        this.atLineStart = false;
        this.afterCR = false;
      }
    }
    this.offset += chunk.length;
    done(null, chunk);
  }

  /**
   * The number of the first non-empty line that starts at or after byte `offset` (the line a row
   * starts on, given where the row before it ended); lines before it are forgotten. Offsets asked
   * about must not decrease.
   */
  lineAtOrAfter(offset: number): number | undefined {
    return this.lineOf(offset, 0);
  }

  /** The number of the second non-empty line from the start (the first line after a one-line header). */
  lineAfterFirst(): number | undefined {
    return this.lineOf(0, 1);
  }

  private lineOf(offset: number, skip: number): number | undefined {
    while (this.head < this.starts.length && (this.starts[this.head] as { offset: number }).offset < offset) this.head++;
    // Forget what was passed, now and then (memory stays flat on a long file).
    if (this.head > 1024) {
      this.starts.splice(0, this.head);
      this.head = 0;
    }
    return this.starts[this.head + skip]?.line;
  }
}
