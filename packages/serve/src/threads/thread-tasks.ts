/**
 * Work `parl serve` runs on `@parl/io`'s labelling threads besides labelling `/v1/rewards` bodies
 * (this module is named to its pool; built as `dist/thread-tasks.js`): mapping a large finished
 * trace to its record and finding, decoding and reading a large OTLP export request, and reading
 * a large `/get_reward` body. Each export takes what the event loop sent and returns
 * `{ value, transfer }` (see `ThreadCallResult` of `@parl/io`).
 *
 * @module
 */
import type { ThreadCallResult } from '@parl/io';
import { parseExportRequest, readExportRequest, TraceInputError, traceToResult, type LiveIntakeOptions, type OtlpExportRead, type TraceResult, type TraceSpan } from '@parl/traces';
import { otlpLogLine } from '../episodes/log-entry.js';
import { deserializeSlice, serializeSlice, sliceEnds } from './span-slices.js';
import { readGetRewardBody, type GetRewardTask } from '../labelling/get-reward-labels.js';

/** The mapping options the intake hands on. */
type MappingOptions = Parameters<NonNullable<LiveIntakeOptions['mapTrace']>>[2];

/** What goes to the thread: the trace, its spans as `v8.serialize`d slices, its mapping options. */
export interface TraceMappingInput {
  /** The trace id. */
  readonly traceId: string;
  /** The spans, in order, as serialised slices (span-slices.ts). */
  readonly slices: readonly Uint8Array[];
  /** See `traceToResult`. */
  readonly options: MappingOptions;
}

/** What {@link mapTraceTask} sends back: the result, or the message of the `TraceInputError` that stopped the mapping. */
export type TraceMappingOutput = { readonly result: TraceResult } | { readonly error: string };

/**
 * Map a finished trace as `traceToResult` maps it, from its spans serialised in slices.
 *
 * @param input - the trace id, its spans as `v8.serialize`d slices, and its mapping options
 */
export function mapTraceTask(input: TraceMappingInput): ThreadCallResult {
  const spans: TraceSpan[] = [];
  for (const slice of input.slices) for (const span of deserializeSlice(slice)) spans.push(span as TraceSpan);
  let value: TraceMappingOutput;
  try {
    value = { result: traceToResult(input.traceId, spans, input.options) };
  } catch (err) {
    if (!(err instanceof TraceInputError)) throw err;
    value = { error: err.message };
  }
  return { value };
}

/**
 * Read a large `/get_reward` body on a thread (see `readGetRewardBody`): its arrays come back moved.
 *
 * @param input - the body's bytes (moved here), whether it came as protobuf, and the reward config
 */
export function getRewardTask(input: GetRewardTask): ThreadCallResult {
  const value = readGetRewardBody(input);
  if (!('count' in value)) return { value };
  const { numbers, idAt, idEnds, fresh } = value;
  return { value, transfer: [numbers.buffer, idAt.buffer, idEnds.buffer, fresh.answer.buffer, fresh.spans.buffer, fresh.numbers.buffer, fresh.extraBytes.buffer] };
}

/** What goes to the thread for a large `POST /v1/traces`: the request's bytes (moved), its encoding and the rollout attribute. */
export interface OtlpReadInput {
  /** The request as received (after gunzip). */
  readonly body: Uint8Array;
  /** Whether it is protobuf (else OTLP JSON). */
  readonly protobuf: boolean;
  /** See `ServeOptions.rolloutAttribute`. */
  readonly rolloutAttribute: string;
}

/** A large export request read on a thread: its spans in slices, and what the answer and the log need. */
export interface OtlpReadSlices {
  /** The reads of its spans (or why each could not be read), in order, as serialised slices (span-slices.ts). */
  readonly slices: readonly Uint8Array[];
  /** Rollout ids by trace id. */
  readonly rollouts: Readonly<Record<string, string>>;
  /** Spans in the request. */
  readonly spanCount: number;
  /** Spans that could not be read. */
  readonly rejected: number;
  /** The first unreadable span's message. */
  readonly firstError: string | undefined;
  /** The request's episode-log line (`otlpLogLine`); empty when it has no span. */
  readonly logLine: Uint8Array;
}

/**
 * Decode and read a large OTLP export request as `POST /v1/traces` reads a small one
 * (`parseExportRequest`, `readExportRequest`), and make its log line; a `TraceInputError` comes
 * back as its message (the request's `400`).
 *
 * @param input - see {@link OtlpReadInput}
 */
export function readOtlpTask(input: OtlpReadInput): ThreadCallResult {
  let read: OtlpExportRead;
  try {
    read = readExportRequest(parseExportRequest(input.body, input.protobuf ? 'protobuf' : 'json'), input.rolloutAttribute);
  } catch (err) {
    if (!(err instanceof TraceInputError)) throw err;
    return { value: { error: err.message } };
  }
  const slices: Uint8Array[] = [];
  let from = 0;
  for (const to of sliceEnds(read.reads)) {
    slices.push(serializeSlice(read.reads, from, to));
    from = to;
  }
  const line = read.spans.length > 0 ? otlpLogLine(input.body, input.protobuf) : Buffer.alloc(0);
  const logLine = line.byteOffset === 0 && line.byteLength === line.buffer.byteLength ? new Uint8Array(line.buffer, 0, line.byteLength) : new Uint8Array(line);
  const value: OtlpReadSlices = { slices, rollouts: read.rollouts, spanCount: read.spans.length, rejected: read.rejected, firstError: read.firstError, logLine };
  return { value, transfer: [...slices.map((s) => s.buffer), logLine.buffer] };
}
