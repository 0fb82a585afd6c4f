/**
 * The JSONL pipeline of `parl reward` / `parl critical-steps`: the input is cut into chunks of
 * whole lines, each chunk labelled (in this thread, or by a pool of worker threads) and the
 * results handed on in input order. At most {@link ChunkLabeller.inFlight} chunks are out at once
 * and the next one is read only when the oldest has been written, so memory stays bounded by
 * a few chunks (plus the longest line) whatever the size of the input and however slow the output.
 *
 * @module
 */
import type { LabelChunkJob, LabelledChunk } from '../label-chunk.js';
import { lineTooLongError, MAX_LINE_BYTES, type LineReader } from '../input-lines.js';

/** Bytes per chunk: large enough that a chunk's overhead (a task, a message) does not count. */
export const CHUNK_BYTES = 1 << 20;

/** Labels chunks, here or elsewhere. */
export interface ChunkLabeller {
  /** Label one chunk (its bytes may be transferred away). */
  label(job: LabelChunkJob): Promise<LabelledChunk> | LabelledChunk;
  /** How many chunks may be labelled at once before the oldest is waited for. */
  readonly inFlight: number;
  /** Release threads. */
  close(): Promise<void>;
}

/** Options of `labelJsonlChunks`. */
export interface LabelJsonlOptions {
  /** The output format of the chunks. */
  readonly format: LabelChunkJob['format'];
  /** Bytes per chunk (default {@link CHUNK_BYTES}). */
  readonly chunkBytes?: number;
  /** Longest line accepted (default {@link MAX_LINE_BYTES}). */
  readonly maxLineBytes?: number;
}

const LF = 0x0a;

/**
 * Label the rest of `reader` (unread so far: its lines are numbered from 1) chunk by chunk with
 * `labeller`, and pass each labelled chunk to `handle` with the input line its first line is, in
 * input order. A failure of `handle` (a bad record under `--on-error fail`) or of a chunk stops
 * everything.
 *
 * This thread only cuts the input after the last line feed of what it has read (one
 * `lastIndexOf` a chunk) and hands the bytes on: the labeller splits and counts the lines, and a
 * chunk's first line number is known when the chunks before it come back.
 *
 * @throws {@link @parl/core!ParlInputError} for a line longer than `maxLineBytes` (after the lines before it are handled)
 */
export async function labelJsonlChunks(
  reader: LineReader,
  labeller: ChunkLabeller,
  handle: (chunk: LabelledChunk, firstLine: number) => Promise<void>,
  options: LabelJsonlOptions,
): Promise<void> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const pending: Promise<LabelledChunk>[] = [];
  /** The input line the next chunk handled starts at. */
  let nextLine = 1;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  /** Whether a piece held now has a line feed (else no chunk can be cut yet). */
  let haveLineFeed = false;

  const drainTo = async (limit: number): Promise<void> => {
    while (pending.length > limit) {
      const chunk = await (pending.shift() as Promise<LabelledChunk>);
      const firstLine = nextLine;
      nextLine += chunk.lines;
      await handle(chunk, firstLine);
    }
  };
  const dispatch = async (bytes: Uint8Array): Promise<void> => {
    const job: LabelChunkJob = { bytes, format: options.format };
    const result = Promise.resolve().then(() => labeller.label(job));
    // Handled in order below; a rejection waiting its turn is not an unhandled one.
    result.catch(() => undefined);
    pending.push(result);
    await drainTo(labeller.inFlight - 1);
  };
  /** All pieces in one buffer of its own (so it can be transferred to a worker). */
  const joined = (): Buffer => {
    const whole = Buffer.allocUnsafeSlow(pieceBytes);
    let at = 0;
    for (const piece of pieces) {
      whole.set(piece, at);
      at += piece.length;
    }
    return whole;
  };
  /** The error for a line that runs past `maxLineBytes`, once every line before it is handled. */
  const lineTooLong = async (): Promise<never> => {
    await drainTo(0);
    throw lineTooLongError(maxLineBytes, nextLine);
  };

  try {
    for await (const piece of reader.rest()) {
      pieces.push(piece);
      pieceBytes += piece.length;
      if (!haveLineFeed && piece.includes(LF)) haveLineFeed = true;
      if (pieceBytes < chunkBytes) continue;
      if (!haveLineFeed) {
        if (pieceBytes > maxLineBytes) await lineTooLong();
        continue;
      }
      const whole = joined();
      const end = whole.lastIndexOf(LF) + 1;
      const tail = Buffer.from(whole.subarray(end));
      pieces = tail.length === 0 ? [] : [tail];
      pieceBytes = tail.length;
      haveLineFeed = false;
      await dispatch(whole.subarray(0, end));
    }
    if (pieceBytes > 0) {
      if (!haveLineFeed && pieceBytes > maxLineBytes) await lineTooLong();
      await dispatch(joined());
    }
    await drainTo(0);
  } finally {
    await labeller.close();
  }
}
