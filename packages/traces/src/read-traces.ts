/**
 * `readTraces`: the streaming pipeline from trace files to spec §5 records and findings.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { TraceInputError } from './errors.js';
import { decodeUnit } from './formats/detect.js';
import { LangSmithRunOperations } from './formats/langsmith-operations.js';
import type { TraceInput } from './input/text-chunks.js';
import { traceUnits } from './otlp/protobuf-file.js';
import { resolveTraceOptions, type ResolvedTraceOptions, type TraceOptions } from './options.js';
import { TraceCollector, type CollectedTrace } from './trace-collector.js';
import { NoStepInformationError } from './no-steps.js';
import { recordToResult, traceToResult, type TraceResult } from './trace-result.js';
import type { TraceSpan } from './span.js';

/**
 * Read traces from a stream and yield one {@link TraceResult} per trace, as soon as the trace
 * is complete (see {@link TraceOptions.ordering}); native spec §5 records are yielded as they come.
 *
 * The input is JSONL (one JSON value per line: OTLP export requests or spans, OpenAI Agents SDK
 * items, LangSmith runs, spec §5 records — mixed freely with `format: 'auto'`) or one JSON
 * document (an array of those, or an OTLP / `{"data":[…]}` / `{"runs":[…]}` document, parsed as a
 * stream). Neither is loaded whole: memory holds the open traces only. A protobuf OTLP export (one
 * `ExportTraceServiceRequest`, or requests each prefixed by a 4-byte big-endian length, as the
 * OpenTelemetry Collector's file exporter writes them; gzip or not) is recognised by its first
 * bytes and read request by request.
 *
 * @param input - text or bytes: an async iterable (e.g. `fs.createReadStream(path)`) or an array of chunks
 * @param options - see {@link TraceOptions}
 * @throws {@link TraceInputError} (with `onMalformed: 'error'`) naming the line, trace and span of
 *   the first malformed input; `ParlInputError` (from `@parl/core`) for bad options or a bad native record
 *
 * @example
 * ```ts
 * import { createReadStream, writeFileSync } from 'node:fs';
 * import { readTraces } from '@parl/traces';
 *
 * writeFileSync('traces.jsonl', `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
 *   spanId: 'a1', name: 'invoke_agent main', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000003000000000',
 *   attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] }] }] }] })}\n`);
 * for await (const { record, finding } of readTraces(createReadStream('traces.jsonl'), { grouping: 'overlap' })) {
 *   console.log(JSON.stringify(record), finding.critical_steps_saved);
 * }
 * ```
 */
export async function* readTraces(input: TraceInput, options: TraceOptions = {}): AsyncGenerator<TraceResult> {
  const opts = resolveTraceOptions(options);
  const collector = new TraceCollector(opts.ordering);
  let records = 0;
  let recognised = 0;
  let unrecognised = 0;
  let firstUnrecognised = '';

  const malformed = (err: ParlInputError, what: string): void => {
    if (opts.onMalformed === 'error') throw err;
    opts.onWarning(`skipped ${what}: ${err.message}`);
  };
  const finish = (trace: CollectedTrace): TraceResult | undefined => {
    if (trace.poisoned !== undefined) {
      malformed(trace.poisoned, `trace ${trace.traceId}`);
      return undefined;
    }
    try {
      return keyedByRollout(traceToResult(trace.traceId, trace.spans, opts), trace.spans);
    } catch (err) {
      if (!(err instanceof TraceInputError)) throw err;
      // A trace without step information is a warning, an error under strict (spec §7).
      if (err instanceof NoStepInformationError && !opts.strict) {
        opts.onWarning(`skipped ${err.message}`);
        return undefined;
      }
      if (err instanceof NoStepInformationError) throw err;
      malformed(err, `trace ${trace.traceId}`);
      return undefined;
    }
  };

  const readValue = function* (value: unknown, location: string): Generator<TraceResult> {
    const completed: CollectedTrace[] = [];
    for (const item of decodeUnit(value, location, opts.format)) {
      if (item.kind === 'error') {
        malformed(item.error, location);
      } else if (item.kind === 'unrecognised') {
        if (unrecognised++ === 0) firstUnrecognised = item.message;
        if (opts.strict) throw new TraceInputError(item.location, 'an unrecognised JSON object', `a trace span, run or spec §5 record under strict (${item.message})`, undefined);
        opts.onWarning(item.message);
      } else if (item.kind === 'record') {
        recognised++;
        records++;
        yield* passRecord(item.record, item.location, records, opts);
      } else if (item.result instanceof TraceInputError) {
        recognised++;
        const err = item.result;
        if (opts.onMalformed === 'error' || err.traceId === undefined) malformed(err, location);
        else completed.push(...collector.poison(err.traceId, err));
      } else {
        recognised++;
        try {
          completed.push(...collector.add(item.result));
        } catch (err) {
          if (!(err instanceof TraceInputError)) throw err;
          malformed(err, `a late span of trace ${err.traceId ?? '?'}`);
        }
      }
    }
    for (const trace of completed) {
      const result = finish(trace);
      if (result !== undefined) yield result;
    }
  };

  // LangSmith run creates wait for their updates (the SDK posts a run twice when its end falls in a later batch).
  const operations = opts.format === 'auto' || opts.format === 'langsmith' ? new LangSmithRunOperations() : undefined;
  for await (const unit of traceUnits(input)) {
    if (unit instanceof TraceInputError) {
      malformed(unit, unit.field === 'document' ? 'the rest of the document' : unit.field);
      continue;
    }
    let taken: { value: unknown; location: string } | undefined = { value: unit.value, location: unit.location };
    if (operations !== undefined) {
      try {
        taken = operations.take(unit.value, unit.location);
      } catch (err) {
        if (!(err instanceof TraceInputError)) throw err;
        malformed(err, unit.location);
        continue;
      }
    }
    if (taken !== undefined) yield* readValue(taken.value, taken.location);
  }
  for (const open of operations?.drain() ?? []) yield* readValue(open.value, open.location);
  for (const trace of collector.drain()) {
    const result = finish(trace);
    if (result !== undefined) yield result;
  }
  if (recognised === 0 && unrecognised > 0) {
    throw new TraceInputError(
      'input',
      `${unrecognised} JSON object(s), none recognised`,
      `trace spans, runs or spec §5 records; nothing in it was recognised, so no record was written (first: ${firstUnrecognised})`,
      undefined,
    );
  }
}

/**
 * The result with its record keyed by the rollout id its spans name (`parl.rollout_id`, as the
 * swarm sets on each episode's root span), so that it joins the rollout lines of the same run; the
 * finding keeps the trace id. The root span's id wins over a descendant's.
 */
function keyedByRollout(result: TraceResult, spans: readonly TraceSpan[]): TraceResult {
  let rollout: string | undefined;
  for (const span of spans) {
    if (span.rolloutId === undefined) continue;
    rollout ??= span.rolloutId;
    if (span.parentId === undefined) {
      rollout = span.rolloutId;
      break;
    }
  }
  return rollout === undefined ? result : { ...result, record: { ...result.record, id: rollout } };
}

function* passRecord(record: Record<string, unknown>, location: string, ordinal: number, opts: ResolvedTraceOptions): Generator<TraceResult> {
  try {
    yield recordToResult(record, location, ordinal);
  } catch (err) {
    if (!(err instanceof ParlInputError) || opts.onMalformed === 'error') throw err;
    opts.onWarning(`skipped ${location}: ${err.message}`);
  }
}
