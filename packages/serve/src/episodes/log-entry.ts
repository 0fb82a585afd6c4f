/**
 * The lines of the episode log (`t` tells which), each enough to rebuild what the server
 * acknowledged.
 *
 * @module
 */
import type { SerialCollapseFinding } from '@parl/traces';

/** A labelled record answered by `/v1/rewards` or `/get_reward` (records with an `id` only). */
export interface RewardEntry {
  /** Kind. */
  readonly t: 'reward';
  /** The record's `id`. */
  readonly id: string;
  /** The labelled record as answered. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** Spans acknowledged by `/v1/traces`, as OTLP JSON spans, with their trace's rollout id when seen. */
export interface SpansEntry {
  /** Kind. */
  readonly t: 'spans';
  /** OTLP JSON spans (ids in hex). */
  readonly spans: readonly Record<string, unknown>[];
  /** Rollout ids by trace id, for the traces whose resource named one. */
  readonly rollouts?: Readonly<Record<string, string>>;
}

/**
 * An OTLP export request acknowledged by `/v1/traces`, logged as it came (after gunzip): the JSON
 * request itself, or the protobuf request's bytes in base64. Replaying it reads the request again,
 * as `/v1/traces` read it. (Logs written before this entry existed hold {@link SpansEntry} lines,
 * which are still replayed.)
 */
export type OtlpEntry =
  | {
      /** Kind. */
      readonly t: 'otlp';
      /** The OTLP/HTTP JSON export request. */
      readonly request: unknown;
    }
  | {
      /** Kind. */
      readonly t: 'otlp';
      /** The OTLP/HTTP protobuf export request, base64. */
      readonly protobuf: string;
    };

/** A trace that became an episode. */
export interface EpisodeEntry {
  /** Kind. */
  readonly t: 'episode';
  /** The trace id. */
  readonly trace: string;
  /** Its rollout id, when a span named one. */
  readonly rollout?: string;
  /** The spec §5 record (spec §7). */
  readonly record: Readonly<Record<string, unknown>>;
  /** The serial-collapse finding. */
  readonly finding: SerialCollapseFinding;
}

/** An outcome posted for a traced episode, with the labelled record answered. */
export interface OutcomeEntry {
  /** Kind. */
  readonly t: 'outcome';
  /** The trace id. */
  readonly trace: string;
  /** The labelled record as answered. */
  readonly labelled: Readonly<Record<string, unknown>>;
}

/** An unfinished trace evicted (timeout or capacity): its logged spans are not replayed. */
export interface EvictedEntry {
  /** Kind. */
  readonly t: 'evicted';
  /** The trace id. */
  readonly trace: string;
}

/** One line of the episode log. */
export type LogEntry = RewardEntry | SpansEntry | OtlpEntry | EpisodeEntry | OutcomeEntry | EvictedEntry;

/**
 * The log line of a {@link RewardEntry} from its record's JSON text: the same bytes as
 * `JSON.stringify({ t: 'reward', id, record })` plus `\n`, without serialising the record again
 * (a `/v1/rewards` answer and its log line share one `JSON.stringify` per record).
 *
 * @param id - the record's `id`, as a string
 * @param recordJson - `JSON.stringify(record)`
 */
export function rewardLogLine(id: string, recordJson: string): string {
  return `${rewardLogHead(id)}${recordJson}}\n`;
}

/** What {@link rewardLogHead} writes before the id's JSON. */
export const REWARD_HEAD_START = '{"t":"reward","id":';
/** What {@link rewardLogHead} writes after the id's JSON. */
export const REWARD_HEAD_END = ',"record":';

/** The start of {@link rewardLogLine}'s line, up to the record: `{"t":"reward","id":…,"record":`. */
export function rewardLogHead(id: string): string {
  return `${REWARD_HEAD_START}${JSON.stringify(id)}${REWARD_HEAD_END}`;
}

const OTLP_JSON_HEAD = Buffer.from('{"t":"otlp","request":');
const OTLP_PROTOBUF_HEAD = Buffer.from('{"t":"otlp","protobuf":"');

/**
 * The log line of an {@link OtlpEntry} from the request's bytes, without parsing or serialising
 * it again: a JSON request is copied in as it is (its line breaks, which valid JSON has only
 * between tokens, become spaces, so the entry stays on one line); a protobuf request goes in as
 * base64.
 *
 * @param body - the request body after gunzip; for JSON, text that `JSON.parse` accepted
 * @param protobuf - whether the body is protobuf
 */
export function otlpLogLine(body: Uint8Array, protobuf: boolean): Buffer {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (protobuf) return Buffer.concat([OTLP_PROTOBUF_HEAD, Buffer.from(bytes.toString('base64')), Buffer.from('"}\n')]);
  const line = Buffer.allocUnsafe(OTLP_JSON_HEAD.length + bytes.length + 2);
  OTLP_JSON_HEAD.copy(line, 0);
  bytes.copy(line, OTLP_JSON_HEAD.length);
  const end = OTLP_JSON_HEAD.length + bytes.length;
  for (let at = line.indexOf(0x0a, OTLP_JSON_HEAD.length); at !== -1 && at < end; at = line.indexOf(0x0a, at + 1)) line[at] = 0x20;
  for (let at = line.indexOf(0x0d, OTLP_JSON_HEAD.length); at !== -1 && at < end; at = line.indexOf(0x0d, at + 1)) line[at] = 0x20;
  line[end] = 0x7d; // }
  line[end + 1] = 0x0a; // \n
  return line;
}
