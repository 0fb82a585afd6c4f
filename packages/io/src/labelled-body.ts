/**
 * A `/v1/rewards` body labelled in one call, as bytes ready to send: what a labelling thread hands
 * back to the event loop. Everything large is a byte array the thread can transfer without a
 * copy; nothing in it is an object per record, so the event loop allocates almost nothing per
 * record and its garbage collector has almost nothing to move. What a caller derives per record
 * besides the answer (`parl serve`'s dashboard points and episode-log lines) comes from a
 * {@link BodyExtras} it names by module, run on the same thread.
 *
 * @module
 */
import { labelReward, ParlInputError, recordText, resolveRewardConfig, type ResolvedRewardConfig, type RewardConfig } from '@parl/core';
import { OutputBytes } from './output-bytes.js';
import { readRecordsBody, type BodyFormat } from './records-body.js';

/** One body to label: its bytes as received (after gunzip), its content type and the resolved reward config. */
export interface LabelBodyTask {
  /** The body, UTF-8. */
  readonly body: Uint8Array;
  /** The `content-type` header, if any. */
  readonly contentType: string | undefined;
  /** The reward config (sendable: see `sendableRewardConfig`). */
  readonly config: RewardConfig;
}

/** The answer of a labelled body, as {@link BodyExtras} sees it. */
export interface LabelledAnswer {
  /** The answer: the labelled records as a JSON array, or as NDJSON for an NDJSON body, UTF-8. */
  readonly answer: Uint8Array;
  /** The `id` of each record that has one, in order, as a string. */
  readonly ids: readonly string[];
  /** For `ids[i]`, the labelled record's JSON is `answer[spans[2i], spans[2i+1])`. */
  readonly spans: Uint32Array;
}

/**
 * What a caller computes from a labelled body besides the answer, on the thread that labelled it:
 * `width` numbers per record, and bytes made from the answer. A module whose `bodyExtras` export is
 * one of these can be named to the thread pool (see `createBodyLabeller`).
 */
export interface BodyExtras {
  /** Numbers per record. */
  readonly width: number;
  /** Write the numbers of labelled record `i` at `into[i * width …]`. */
  numbers(labelled: Readonly<Record<string, unknown>>, into: Float64Array, i: number): void;
  /** Bytes made from the whole labelled answer (for `parl serve`: its episode-log lines). */
  bytes(answer: LabelledAnswer): Uint8Array;
}

/** A labelled body. */
export interface LabelledBody extends LabelledAnswer {
  /** How the body was written (and so the answer). */
  readonly format: BodyFormat;
  /** Records labelled. */
  readonly count: number;
  /** The {@link BodyExtras} numbers, `width` per record (empty without extras). */
  readonly numbers: Float64Array;
  /** The {@link BodyExtras} bytes (empty without extras). */
  readonly extraBytes: Uint8Array;
}

/** A body that could not be labelled: the one-line message of its first bad record or field. */
export interface LabelBodyFailure {
  /** The message, as a `400` answers it. */
  readonly error: string;
}

/** Resolved reward configs by config, so a thread resolves each config once. */
const configs = new Map<string, ResolvedRewardConfig>();

function configOf(config: RewardConfig): ResolvedRewardConfig {
  const key = JSON.stringify(config);
  let resolved = configs.get(key);
  if (resolved === undefined) {
    resolved = resolveRewardConfig(config);
    if (configs.size >= 64) configs.clear();
    configs.set(key, resolved);
  }
  return resolved;
}

/**
 * Label the records of a body as `parl reward` labels them (core `labelReward`; numbers as
 * `JSON.stringify` writes them), and make the answer and the `extras`. Bad input is returned as a
 * {@link LabelBodyFailure}, not thrown, so that a thread can hand it back as data; any other error
 * is thrown.
 *
 * @example
 * ```ts
 * const out = labelRecordsBody({ body: new TextEncoder().encode('[{"id":"a","stages":[{"main_steps":1}],"r_perf":1}]'), contentType: 'application/json', config: {} });
 * ```
 */
export function labelRecordsBody(task: LabelBodyTask, extras?: BodyExtras): LabelledBody | LabelBodyFailure {
  try {
    const config = configOf(task.config);
    const bytes = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    const { records, format } = readRecordsBody(bytes, task.contentType);
    const width = extras?.width ?? 0;
    // Records are labelled and written one at a time: what is held besides the body is the answer
    // so far (and, for a JSON array, the parsed records not yet labelled).
    const out = new OutputBytes(bytes.byteLength * 2 + 64);
    let numbers = new Float64Array(width * 64);
    const ids: string[] = [];
    const spans: number[] = [];
    let count = 0;
    if (format === 'json') out.writeByte(0x5b); // [
    for (const { value, location } of records) {
      const labelled = labelReward(value, config, location) as unknown as Readonly<Record<string, unknown>>;
      const text = recordText(labelled, location);
      if (format === 'json' && count > 0) out.writeByte(0x2c); // ,
      const start = out.byteLength;
      out.writeText(text);
      const id = labelled['id'];
      if (typeof id === 'string' || typeof id === 'number') {
        ids.push(String(id));
        spans.push(start, out.byteLength);
      }
      if (format === 'ndjson') out.writeByte(0x0a); // \n
      if (extras !== undefined) {
        if ((count + 1) * width > numbers.length) {
          const grown = new Float64Array(numbers.length * 2);
          grown.set(numbers);
          numbers = grown;
        }
        extras.numbers(labelled, numbers, count);
      }
      count++;
    }
    if (format === 'json') out.writeByte(0x5d); // ]
    const answer = out.bytes();
    const spanArray = Uint32Array.from(spans);
    const extraBytes = extras === undefined ? new Uint8Array(0) : extras.bytes({ answer, ids, spans: spanArray });
    return { answer, format, count, ids, spans: spanArray, numbers: numbers.slice(0, count * width), extraBytes };
  } catch (err) {
    if (err instanceof ParlInputError) return { error: err.message };
    throw err;
  }
}
