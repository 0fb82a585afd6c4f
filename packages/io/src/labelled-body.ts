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
import { OutputBytes } from './internal/output-bytes.js';
import { readRangedRecordsBody, type BodyFormat, type RangedBodyRecord } from './records-body.js';

/** One body to label: its bytes as received (after gunzip), its content type and the resolved reward config. */
export interface LabelBodyTask {
  /** The body, UTF-8. */
  readonly body: Uint8Array;
  /** The `content-type` header, if any. */
  readonly contentType: string | undefined;
  /** The reward config (sendable: see `sendableRewardConfig`). */
  readonly config: RewardConfig;
  /**
   * True: {@link BodyExtras.bytes} is not run (an empty {@link LabelledBody.extraBytes}), for a
   * caller that makes those bytes itself from the answer, so that they do not cross from a thread.
   * Given to `labelInSlices`, it applies to the slices of a large body only (one labelled in one
   * go gets its extra bytes): which bodies are sliced is decided there, once.
   */
  readonly withoutExtraBytes?: boolean;
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
  /**
   * Bytes made from the whole labelled answer (for `parl serve` before it wrote its episode-log
   * lines itself); absent: none (an empty {@link LabelledBody.extraBytes}).
   */
  bytes?(answer: LabelledAnswer): Uint8Array;
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
  /**
   * The records with an `id` as they were posted, where the body says where each one is (absent
   * for a JSON array that had to be parsed whole): what a caller may hold instead of their
   * labelled text, a third of its size, and label again when asked for it.
   */
  readonly posted?: PostedRecords;
}

/** The records of a body that have an `id`, as posted (see {@link LabelledBody.posted}). */
export interface PostedRecords {
  /** The bytes they were read from (the body, or the slice of it), UTF-8. */
  readonly bytes: Uint8Array;
  /** For `ids[i]` of the {@link LabelledBody}, the record's JSON text is `bytes[spans[2i], spans[2i+1])` (white space around it may be included). */
  readonly spans: Uint32Array;
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
 * Label `records` into one answer: a JSON array (`[…]`, or its elements joined by `,` without the
 * brackets when `bracketed` is false: a slice of a larger answer) or NDJSON lines.
 */
function labelRecords(
  records: Iterable<RangedBodyRecord>,
  format: BodyFormat,
  config: ResolvedRewardConfig,
  extras: BodyExtras | undefined,
  bracketed: boolean,
  capacity: number,
  input: Uint8Array | undefined,
  withoutExtraBytes: boolean | undefined,
): LabelledBody {
  const width = extras?.width ?? 0;
  // Records are labelled and written one at a time: what is held besides the body is the answer
  // so far (and, for a JSON array, the parsed records not yet labelled).
  const out = new OutputBytes(capacity);
  let numbers = new Float64Array(width * 64);
  const ids: string[] = [];
  const spans: number[] = [];
  const inputSpans: number[] = [];
  let count = 0;
  if (format === 'json' && bracketed) out.writeByte(0x5b); // [
  for (const { value, location, start: from, end: to } of records) {
    const labelled = labelReward(value, config, location) as unknown as Readonly<Record<string, unknown>>;
    const text = recordText(labelled, location);
    if (format === 'json' && count > 0) out.writeByte(0x2c); // ,
    const start = out.byteLength;
    out.writeText(text);
    const id = labelled['id'];
    if (typeof id === 'string' || typeof id === 'number') {
      ids.push(String(id));
      spans.push(start, out.byteLength);
      inputSpans.push(from, to);
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
  if (format === 'json' && bracketed) out.writeByte(0x5d); // ]
  const answer = out.bytes();
  const spanArray = Uint32Array.from(spans);
  const extraBytes = extras?.bytes === undefined || withoutExtraBytes === true ? new Uint8Array(0) : extras.bytes({ answer, ids, spans: spanArray });
  const labelledBody: LabelledBody = { answer, format, count, ids, spans: spanArray, numbers: numbers.slice(0, count * width), extraBytes };
  return input === undefined || ids.length === 0 ? labelledBody : { ...labelledBody, posted: { bytes: input, spans: Uint32Array.from(inputSpans) } };
}

/**
 * The failure of a body whose record at hand could not be labelled: for a JSON document read
 * element by element, an element further on that is not JSON is the failure instead (as when the
 * document was parsed whole, before any record was labelled).
 */
function failureOf(err: ParlInputError, readRest: (() => void) | undefined): LabelBodyFailure {
  if (readRest !== undefined) {
    try {
      readRest();
    } catch (later) {
      if (later instanceof ParlInputError) return { error: later.message };
      throw later;
    }
  }
  return { error: err.message };
}

/**
 * Label the records of a body as `parl reward` labels them (core `labelReward`; numbers as
 * `JSON.stringify` writes them), and make the answer and the `extras`. Bad input is returned as a
 * {@link LabelBodyFailure}, not thrown, so that a thread can hand it back as data; any other error
 * is thrown. A JSON array is read an element at a time (never parsed whole).
 *
 * @example
 * ```ts
 * const out = labelRecordsBody({ body: new TextEncoder().encode('[{"id":"a","stages":[{"main_steps":1}],"r_perf":1}]'), contentType: 'application/json', config: {} });
 * ```
 */
export function labelRecordsBody(task: LabelBodyTask, extras?: BodyExtras): LabelledBody | LabelBodyFailure {
  let readRest: (() => void) | undefined;
  try {
    const config = configOf(task.config);
    const bytes = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    const body = readRangedRecordsBody(bytes, task.contentType);
    readRest = body.readRest;
    return labelRecords(body.records, body.format, config, extras, true, bytes.byteLength * 2 + 64, body.sliceable ? task.body : undefined, task.withoutExtraBytes);
  } catch (err) {
    if (err instanceof ParlInputError) return failureOf(err, readRest);
    throw err;
  }
}

/**
 * A body checked in full (every record read and labelled, the results let go), and cut into
 * slices of whole records for {@link labelBodySlice}: the first pass of labelling a large body
 * without holding its whole answer.
 */
export interface CheckedBody {
  /** How the body was written (and so the answer). */
  readonly format: BodyFormat;
  /** Records in it. */
  readonly count: number;
  /**
   * `[start, end)` byte ranges of the body, two numbers a slice, each a run of whole records (and
   * for a JSON array, the commas between them) of about `sliceBytes` bytes; undefined when the body
   * cannot be sliced (a JSON array the element scan did not read: label it whole).
   */
  readonly slices: Uint32Array | undefined;
}

/**
 * Read and label every record of a body as {@link labelRecordsBody} does, keeping nothing but
 * where runs of about `sliceBytes` bytes of whole records start and end: what fails here is what
 * {@link labelRecordsBody} would answer, and the slices then label without failing.
 *
 * @example
 * ```ts
 * const body = new TextEncoder().encode('[{"num_subagents": 4, "r_perf": 1}]');
 * const checked = checkRecordsBody({ body, contentType: 'application/json', config: {} }, 1 << 20);
 * ```
 */
export function checkRecordsBody(task: LabelBodyTask, sliceBytes: number): CheckedBody | LabelBodyFailure {
  let readRest: (() => void) | undefined;
  try {
    const config = configOf(task.config);
    const bytes = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
    const body = readRangedRecordsBody(bytes, task.contentType);
    readRest = body.readRest;
    const slices: number[] = [];
    let sliceStart = -1;
    let sliceEnd = -1;
    let count = 0;
    for (const { value, location, start, end } of body.records) {
      recordText(labelReward(value, config, location) as unknown as Readonly<Record<string, unknown>>, location);
      count++;
      if (sliceStart >= 0 && end - sliceStart > sliceBytes) {
        slices.push(sliceStart, sliceEnd);
        sliceStart = -1;
      }
      if (sliceStart < 0) sliceStart = start;
      sliceEnd = end;
    }
    if (sliceStart >= 0) slices.push(sliceStart, sliceEnd);
    return { format: body.format, count, slices: body.sliceable ? Uint32Array.from(slices) : undefined };
  } catch (err) {
    if (err instanceof ParlInputError) return failureOf(err, readRest);
    throw err;
  }
}

/** One slice of a checked body to label: its bytes (a JSON array's elements wrapped in `[` `]`, or NDJSON lines). */
export interface LabelSliceTask {
  /** The slice's bytes, UTF-8: for a JSON body, `[` + the slice + `]`. */
  readonly body: Uint8Array;
  /** The body's format (see {@link CheckedBody.format}). */
  readonly format: BodyFormat;
  /** The reward config (sendable: see `sendableRewardConfig`). */
  readonly config: RewardConfig;
  /** As {@link LabelBodyTask.withoutExtraBytes}. */
  readonly withoutExtraBytes?: boolean;
}

/**
 * The bytes of slice `i` of a checked body as a {@link LabelSliceTask} reads them: a buffer of
 * their own (movable to a thread), a JSON slice wrapped in `[` `]`.
 */
export function sliceBytesOf(body: Uint8Array, checked: CheckedBody, i: number): Uint8Array {
  const slices = checked.slices as Uint32Array;
  const start = slices[2 * i] as number;
  const end = slices[2 * i + 1] as number;
  if (checked.format === 'ndjson') return body.slice(start, end);
  const out = new Uint8Array(end - start + 2);
  out[0] = 0x5b; // [
  out.set(body.subarray(start, end), 1);
  out[out.length - 1] = 0x5d; // ]
  return out;
}

/**
 * Label one slice of a body {@link checkRecordsBody} checked: its records' answer — for a JSON
 * body, the elements joined by `,` without brackets, so that the slices' answers joined by `,`
 * inside `[` `]` are the body's — with the `extras` of those records.
 *
 * @throws Error for a record that fails (the body was checked: this is a bug, not bad input)
 */
export function labelBodySlice(task: LabelSliceTask, extras?: BodyExtras): LabelledBody {
  const config = configOf(task.config);
  const bytes = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength);
  const body = readRangedRecordsBody(bytes, task.format === 'ndjson' ? 'application/x-ndjson' : 'application/json');
  return labelRecords(body.records, task.format, config, extras, false, bytes.byteLength * 4 + 64, body.sliceable ? task.body : undefined, task.withoutExtraBytes);
}
