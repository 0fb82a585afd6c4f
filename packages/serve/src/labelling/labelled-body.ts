/**
 * A `/v1/rewards` body labelled in one call, as bytes ready to send and to log: what a labelling
 * thread hands back to the event loop. Everything large is a byte array the thread can transfer
 * without a copy; nothing in it is an object per record, so the event loop allocates almost
 * nothing per record and its garbage collector has almost nothing to move.
 *
 * @module
 */
import { labelReward, ParlInputError, recordText, resolveRewardConfig, type ResolvedRewardConfig } from '@parl/core';
import { parseRecordsBody, type BodyFormat } from '../body/records-body.js';
import { episodePoint } from '../dashboard/live-stats.js';
import { rewardLogHead } from '../episodes/log-entry.js';
import { rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import { packPoint, POINT_WIDTH } from './packed-points.js';

/** One body to label: its bytes as received (after gunzip), its content type and the request's reward query. */
export interface LabelBodyTask {
  /** The body, UTF-8. */
  readonly body: Uint8Array;
  /** The `content-type` header, if any. */
  readonly contentType: string | undefined;
  /** The reward options of the query string (already checked by the route). */
  readonly query: RewardQuery;
}

/** A labelled body. */
export interface LabelledBody {
  /** The answer: the labelled records as a JSON array, or as NDJSON for an NDJSON body, UTF-8. */
  readonly answer: Uint8Array;
  /** How the body was written (and so the answer). */
  readonly format: BodyFormat;
  /** Records labelled. */
  readonly count: number;
  /** The `id` of each record that has one, in order, as a string. */
  readonly ids: readonly string[];
  /** For `ids[i]`, the labelled record's JSON is `answer[spans[2i], spans[2i+1])`. */
  readonly spans: Uint32Array;
  /** The episode-log lines of the records with an `id` (`rewardLogLine`), UTF-8; empty without ids. */
  readonly logLines: Uint8Array;
  /** The dashboard point of each record, packed ({@link POINT_WIDTH} numbers a record; see packed-points.ts). */
  readonly points: Float64Array;
}

/** A body that could not be labelled: the one-line message of its first bad record or field. */
export interface LabelBodyFailure {
  /** The message, as a `400` answers it. */
  readonly error: string;
}

/** Resolved reward configs by query, so a thread resolves each query once. */
const configs = new Map<string, ResolvedRewardConfig>();

function configOf(query: RewardQuery): ResolvedRewardConfig {
  const key = JSON.stringify(query);
  let config = configs.get(key);
  if (config === undefined) {
    config = resolveRewardConfig(rewardConfigOfQuery(query));
    if (configs.size >= 64) configs.clear();
    configs.set(key, config);
  }
  return config;
}

/**
 * Label the records of a body as `parl reward` labels them (core `labelReward`; numbers as
 * `JSON.stringify` writes them), and make the answer, the log lines and the dashboard points.
 * Bad input is returned as a {@link LabelBodyFailure}, not thrown, so that a thread can hand it back
 * as data; any other error is thrown.
 *
 * @example
 * ```ts
 * const out = labelRecordsBody({ body: new TextEncoder().encode('[{"id":"a","stages":[{"main_steps":1}],"r_perf":1}]'), contentType: 'application/json', query: {} });
 * ```
 */
export function labelRecordsBody(task: LabelBodyTask): LabelledBody | LabelBodyFailure {
  try {
    const config = configOf(task.query);
    const { records, format } = parseRecordsBody(Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength).toString('utf8'), task.contentType);
    const points = new Float64Array(records.length * POINT_WIDTH);
    const ids: string[] = [];
    const idIndex: number[] = [];
    const json: string[] = new Array<string>(records.length);
    for (let i = 0; i < records.length; i++) {
      const { value, location } = records[i] as (typeof records)[number];
      const labelled = labelReward(value, config, location) as unknown as Readonly<Record<string, unknown>>;
      const text = recordText(labelled, location);
      json[i] = text;
      packPoint(points, i, episodePoint(labelled));
      const id = labelled['id'];
      if (typeof id === 'string' || typeof id === 'number') {
        const idText = String(id);
        ids.push(idText);
        idIndex.push(i);
      }
    }
    const { answer, spans } = encodeAnswer(json, format, idIndex);
    return { answer, format, count: records.length, ids, spans, logLines: encodeLogLines(ids, answer, spans), points };
  } catch (err) {
    if (err instanceof ParlInputError) return { error: err.message };
    throw err;
  }
}

/**
 * The log lines of the records with an id (the bytes of `rewardLogLine(id, json)` for each: its
 * head, the record's JSON copied from the answer's bytes rather than encoded again, `}\n`).
 */
function encodeLogLines(ids: readonly string[], answer: Uint8Array, spans: Uint32Array): Uint8Array {
  if (ids.length === 0) return new Uint8Array(0);
  const heads = ids.map(rewardLogHead);
  let total = 0;
  for (let i = 0; i < ids.length; i++) total += Buffer.byteLength(heads[i] as string, 'utf8') + ((spans[2 * i + 1] as number) - (spans[2 * i] as number)) + 2;
  const out = Buffer.allocUnsafeSlow(total);
  const from = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    at += out.write(heads[i] as string, at, 'utf8');
    at += from.copy(out, at, spans[2 * i], spans[2 * i + 1]);
    out[at++] = 0x7d; // }
    out[at++] = 0x0a; // \n
  }
  return new Uint8Array(out.buffer, 0, at);
}

/** The answer's bytes, and where in them each record with an id is. */
function encodeAnswer(json: readonly string[], format: BodyFormat, idIndex: readonly number[]): { answer: Uint8Array; spans: Uint32Array } {
  const spans = new Uint32Array(idIndex.length * 2);
  let total = format === 'json' ? 2 + Math.max(0, json.length - 1) : json.length;
  for (const text of json) total += Buffer.byteLength(text, 'utf8');
  const answer = Buffer.allocUnsafeSlow(total);
  let at = 0;
  if (format === 'json') answer[at++] = 0x5b; // [
  let next = 0;
  for (let i = 0; i < json.length; i++) {
    if (format === 'json' && i > 0) answer[at++] = 0x2c; // ,
    const start = at;
    at += answer.write(json[i] as string, at, 'utf8');
    if (idIndex[next] === i) {
      spans[2 * next] = start;
      spans[2 * next + 1] = at;
      next += 1;
    }
    if (format === 'ndjson') answer[at++] = 0x0a; // \n
  }
  if (format === 'json') answer[at++] = 0x5d; // ]
  return { answer: new Uint8Array(answer.buffer, 0, at), spans };
}
