/**
 * Turning one complete trace (or one native record) into a spec §5 record and its finding.
 *
 * @module
 */
import { criticalSteps, validateRecord, type EpisodeRecord, type StageRecord } from '@parl/core';
import { recordFinding, serialCollapseFinding, type SerialCollapseFinding } from './finding.js';
import { mapTrace, stagesOf } from './mapping.js';
import { resolveTraceOptions, type ConcreteTraceFormat, type TraceOptions } from './options.js';
import type { TraceSpan } from './span.js';
import { TraceInputError } from './errors.js';
import { deriveModelCalls } from './internal/derive-steps.js';
import { NoStepInformationError } from './no-steps.js';
import { buildTraceTree } from './trace-tree.js';

/** What {@link readTraces} yields per trace. */
export interface TraceResult {
  /**
   * The spec §5 record, as run (spec §7): `id` and `stages` (sub-agents as `{steps, finished}`,
   * with `wait_steps` where they waited). `id` is the trace id; from {@link readTraces}, the
   * rollout id when the trace's spans name one (`parl.rollout_id`).
   */
  readonly record: EpisodeRecord;
  /** The serial-collapse finding of the trace. */
  readonly finding: SerialCollapseFinding;
  /** Warnings about this trace (unknown attributes, mapping choices). */
  readonly warnings: readonly string[];
  /** The trace id (for a native record: its `id`, or `record N`). */
  readonly traceId: string;
  /** The format it was read from. */
  readonly format: ConcreteTraceFormat;
  /** The orchestrator's name; undefined for a native record. */
  readonly orchestrator: string | undefined;
}

/**
 * The record and finding of one complete trace.
 *
 * @param traceId - the trace id
 * @param spans - all its spans, in arrival order
 * @param options - see {@link TraceOptions} (`grouping`, `stepsFrom`, `clock` and `strict` apply here)
 * @throws {@link TraceInputError} for a duplicate span id, a missing parent or a cycle; under
 *   `strict`, for the first warning about the trace
 *
 * @example
 * ```ts
 * const at = { traceId: 't1', error: false, format: 'otel' as const, location: 'span 1', warnings: [] };
 * const spans = [
 *   { ...at, spanId: 'a', parentId: undefined, name: 'main', role: 'agent' as const, rawKind: 'invoke_agent', startMs: 0, endMs: 30 },
 *   { ...at, spanId: 'c', parentId: 'a', name: 'chat m', role: 'llm' as const, rawKind: 'chat', startMs: 10, endMs: 20 },
 * ];
 * const { record, finding } = traceToResult('t1', spans, { grouping: 'overlap' });
 * record.stages.length; // 1
 * ```
 */
export function traceToResult(traceId: string, spans: readonly TraceSpan[], options: TraceOptions = {}): TraceResult {
  const resolved = resolveTraceOptions(options);
  // Formats that do not record model calls one by one (VoltAgent) get them derived, and say so.
  const derived = deriveModelCalls(spans);
  const tree = buildTraceTree(traceId, derived.spans);
  const mapping = mapTrace(tree, resolved);
  const stages: StageRecord[] = stagesOf(mapping, resolved.grouping);
  // No step anywhere (spec §7): never a record of zeros.
  if (criticalSteps(stages).total_steps === 0) throw new NoStepInformationError(traceId, spans.length, resolved.stepsFrom, spans[0]?.location);
  const warnings = [...spans.flatMap((s) => s.warnings), ...mapping.warnings];
  if (resolved.strict && warnings.length > 0) {
    const first = warnings[0] as string;
    throw new TraceInputError(`trace ${traceId}`, `${warnings.length} warning(s)`, `a trace without warnings under strict (${first})`, spans[0]?.location, { traceId });
  }
  return {
    record: { id: traceId, stages },
    finding: derived.note === undefined ? serialCollapseFinding(traceId, mapping) : { ...serialCollapseFinding(traceId, mapping), steps_derived: derived.note },
    warnings,
    traceId,
    format: spans[0]?.format ?? 'otlp',
    orchestrator: mapping.orchestrator,
  };
}

/**
 * A native spec §5 record passed through unchanged, validated by `@parl/core`.
 *
 * @param record - the parsed record
 * @param location - where it was read (`line 3`)
 * @param ordinal - its position among the records, used as trace id when it has no `id`
 * @throws `ParlInputError` (from `@parl/core`) from `validateRecord`, located at `location`
 */
export function recordToResult(record: Record<string, unknown>, location: string, ordinal: number): TraceResult {
  validateRecord(record, location);
  const id = record['id'] === undefined ? `record ${ordinal}` : String(record['id']);
  const stages = record['stages'] as readonly StageRecord[] | undefined;
  return {
    record: record as EpisodeRecord,
    finding: recordFinding(id, stages),
    warnings: [],
    traceId: id,
    format: 'parl',
    orchestrator: undefined,
  };
}
