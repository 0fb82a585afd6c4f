/**
 * The episode-log lines of a labelled `/v1/rewards` answer, made on the event loop from the
 * answer's bytes into one reused buffer: the lines are about as large as the answer (each carries
 * its labelled record), so made on a labelling thread they crossed to the event loop as a second
 * copy of every answer, garbage as soon as it was written; made here, they take no new memory
 * once the buffer has grown to a slice's lines.
 *
 * @module
 */
import type { LabelledAnswer } from '@parl/io';
import { REWARD_HEAD_END, REWARD_HEAD_START } from './log-entry.js';

/** The largest buffer kept for the next answer (a 256 KiB slice of small records needs about 0.9 MiB). */
const KEPT_BYTES = 8 << 20;

// `rewardLogHead(id)` is REWARD_HEAD_START + `JSON.stringify(id)` + REWARD_HEAD_END (log-entry.ts).
const HEAD_START = REWARD_HEAD_START;
const HEAD_END = REWARD_HEAD_END;
const HEAD_BYTES = HEAD_START.length + HEAD_END.length;

/** An id that `JSON.stringify` writes as itself in quotes (nothing escaped; no surrogates, to be safe). */
const PLAIN_ID = /^[^\u0000-\u001f"\\\ud800-\udfff]*$/;

/** The bytes of `JSON.stringify(id)`, UTF-8. */
function idJsonBytes(id: string): number {
  return PLAIN_ID.test(id) ? Buffer.byteLength(id, 'utf8') + 2 : Buffer.byteLength(JSON.stringify(id), 'utf8');
}

/** Write `rewardLogHead(id)` at `at`; the end. A plain id is written in quotes without a string made for it. */
function writeHead(out: Buffer, at: number, id: string): number {
  let to = at + out.write(HEAD_START, at, 'latin1');
  if (PLAIN_ID.test(id)) {
    out[to++] = 0x22; // "
    to += out.write(id, to, 'utf8');
    out[to++] = 0x22; // "
  } else {
    to += out.write(JSON.stringify(id), to, 'utf8');
  }
  return to + out.write(HEAD_END, to, 'latin1');
}

/** Lines made by {@link RewardLogLines.make}: write `bytes`, then `release` them (once written, or failed). */
export interface MadeLines {
  /** The lines, UTF-8 (empty for an answer without ids). */
  readonly bytes: Uint8Array;
  /** Give the buffer back for the next answer; `bytes` must not be read afterwards. */
  release(): void;
}

/**
 * Makes the log lines of answers, `rewardLogLine(id, json)` of each record with an id (its head,
 * the record's JSON copied from the answer, `}\n`), reusing one buffer between answers; answers
 * made while the buffer is out (concurrent requests) get a buffer of their own.
 */
export class RewardLogLines {
  private spare: Buffer | undefined;

  /**
   * The lines of `answer`'s records with an id, in order.
   *
   * @example
   * ```ts
   * const lines = new RewardLogLines();
   * const made = lines.make({ answer: new TextEncoder().encode('{"id":"a"}'), ids: ['a'], spans: Uint32Array.of(0, 10) });
   * // made.bytes: {"t":"reward","id":"a","record":{"id":"a"}}\n
   * made.release();
   * ```
   */
  make({ ids, answer, spans }: LabelledAnswer): MadeLines {
    if (ids.length === 0) return { bytes: new Uint8Array(0), release: () => undefined };
    let total = 0;
    for (let i = 0; i < ids.length; i++) total += HEAD_BYTES + idJsonBytes(ids[i] as string) + ((spans[2 * i + 1] as number) - (spans[2 * i] as number)) + 2;
    let out = this.spare;
    this.spare = undefined;
    if (out === undefined || out.length < total) out = Buffer.allocUnsafeSlow(Math.max(total, out?.length ?? 0));
    const from = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      at = writeHead(out, at, ids[i] as string);
      at += from.copy(out, at, spans[2 * i], spans[2 * i + 1]);
      out[at++] = 0x7d; // }
      out[at++] = 0x0a; // \n
    }
    const buffer = out;
    let released = false;
    return {
      bytes: buffer.subarray(0, at),
      release: () => {
        if (released) return;
        released = true;
        if (buffer.length <= KEPT_BYTES && (this.spare === undefined || this.spare.length < buffer.length)) this.spare = buffer;
      },
    };
  }
}
