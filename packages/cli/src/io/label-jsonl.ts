/**
 * The JSONL pipeline of `parl reward` / `parl critical-steps`: the input is cut into chunks of
 * whole lines, each chunk labelled (in this thread, or by a pool of worker threads) and the
 * results handed on in input order. At most {@link ChunkLabeller.inFlight} chunks are out at once
 * and the next one is read only when the oldest has been written, so memory stays bounded by
 * a few chunks (plus the longest line) whatever the size of the input and however slow the output.
 *
 * @module
 */
import type { LabelChunkJob, LabelledChunk } from './label-chunk.js';
import { lineTooLongError, MAX_LINE_BYTES, type LineReader } from './input-lines.js';

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

/** Options of {@link labelJsonlChunks}. */
export interface LabelJsonlOptions {
  /** The output format of the chunks. */
  readonly format: LabelChunkJob['format'];
  /** Bytes per chunk (default {@link CHUNK_BYTES}). */
  readonly chunkBytes?: number;
  /** Longest line accepted (default {@link MAX_LINE_BYTES}). */
  readonly maxLineBytes?: number;
}

const LF = 0x0a;

function countLineFeeds(bytes: Uint8Array, end: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, end);
  let count = 0;
  for (let at = buffer.indexOf(LF); at >= 0; at = buffer.indexOf(LF, at + 1)) count++;
  return count;
}

/**
 * Label the rest of `reader` (unread so far: its lines are numbered from 1) chunk by chunk with
 * `labeller`, and pass each labelled chunk to `handle`, in input order. A failure of `handle` (a
 * bad record under `--on-error fail`) or of a chunk stops everything.
 *
 * @throws {@link @parl/core!ParlInputError} for a line longer than `maxLineBytes` (after the lines before it are handled)
 */
export async function labelJsonlChunks(
  reader: LineReader,
  labeller: ChunkLabeller,
  handle: (chunk: LabelledChunk) => Promise<void>,
  options: LabelJsonlOptions,
): Promise<void> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const pending: Promise<LabelledChunk>[] = [];
  let nextLine = 1;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  /** Whether a piece held now has a line feed (else no chunk can be cut yet). */
  let haveLineFeed = false;

  const drainTo = async (limit: number): Promise<void> => {
    while (pending.length > limit) await handle(await (pending.shift() as Promise<LabelledChunk>));
  };
  const dispatch = async (bytes: Uint8Array, lines: number): Promise<void> => {
    const job: LabelChunkJob = { bytes, firstLine: nextLine, format: options.format };
    nextLine += lines;
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

  try {
    for await (const piece of reader.rest()) {
      pieces.push(piece);
      pieceBytes += piece.length;
      if (!haveLineFeed && piece.includes(LF)) haveLineFeed = true;
      if (pieceBytes < chunkBytes) continue;
      if (!haveLineFeed) {
        if (pieceBytes > maxLineBytes) {
          await drainTo(0);
          throw lineTooLongError(maxLineBytes, nextLine);
        }
        continue;
      }
      const whole = joined();
      const end = whole.lastIndexOf(LF) + 1;
      const tail = Buffer.from(whole.subarray(end));
      pieces = tail.length === 0 ? [] : [tail];
      pieceBytes = tail.length;
      haveLineFeed = false;
      await dispatch(whole.subarray(0, end), countLineFeeds(whole, end));
    }
    if (pieceBytes > 0) {
      if (!haveLineFeed && pieceBytes > maxLineBytes) {
        await drainTo(0);
        throw lineTooLongError(maxLineBytes, nextLine);
      }
      const whole = joined();
      await dispatch(whole, countLineFeeds(whole, whole.length));
    }
    await drainTo(0);
  } finally {
    await labeller.close();
  }
}
