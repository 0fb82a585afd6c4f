/**
 * Work `parl serve` runs on `@parl/io`'s labelling threads besides labelling `/v1/rewards` bodies
 * (this module is named to its pool; built as `dist/thread-tasks.js`): mapping a large finished
 * trace to its record and finding, and reading a large `/get_reward` body. Each export takes what the event loop sent and returns
 * `{ value, transfer }` (see `ThreadCallResult` of `@parl/io`).
 *
 * @module
 */
import type { ThreadCallResult } from '@parl/io';
import { TraceInputError, traceToResult, type TraceResult, type TraceSpan } from '@parl/traces';
import { deserialize } from 'node:v8';
import { readGetRewardBody, type GetRewardTask } from '../labelling/get-reward-labels.js';
import type { TraceMappingInput } from './trace-mapping.js';

/** What {@link mapTraceTask} sends back: the result, or the message of the `TraceInputError` that stopped the mapping. */
export type TraceMappingOutput = { readonly result: TraceResult } | { readonly error: string };

/**
 * Map a finished trace as `traceToResult` maps it, from its spans serialised in slices.
 *
 * @param input - the trace id, its spans as `v8.serialize`d slices, and its mapping options
 */
export function mapTraceTask(input: TraceMappingInput): ThreadCallResult {
  const spans: TraceSpan[] = [];
  for (const slice of input.slices) for (const span of deserialize(slice) as TraceSpan[]) spans.push(span);
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
