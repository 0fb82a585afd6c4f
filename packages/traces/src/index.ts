/**
 * `@parl/traces`: agent traces (OpenTelemetry GenAI spans as OTLP JSON, OpenAI Agents SDK trace
 * exports, LangSmith runs) into PARL spec §5 episode records, with a serial-collapse finding per
 * trace. Streams trace by trace; computes no PARL quantity itself (critical steps come from
 * `@parl/core`).
 *
 * @packageDocumentation
 */
export * from './options.js';
export * from './errors.js';
export * from './span.js';
export * from './read-traces.js';
export * from './trace-result.js';
export * from './finding.js';
export { mapTrace, stagesOf, type SubAgentRef, type TurnGroup, type TraceMapping } from './mapping.js';
export { buildTraceTree, type TraceTree } from './trace-tree.js';
export { TraceCollector, type CollectedTrace } from './trace-collector.js';
export { detectFormat, decodeUnit, type DecodedItem } from './formats/detect.js';
export { readOtlpSpan, readOtlpRequest, OTEL_OPERATION_ROLES } from './formats/otlp.js';
export { readOpenAiAgentsItem, OPENAI_AGENTS_SPAN_ROLES } from './formats/openai-agents.js';
export { readLangSmithRun, idsOfDottedOrder, LANGSMITH_RUN_ROLES } from './formats/langsmith.js';
export type { SpanReadResult } from './formats/span-fields.js';
export { jsonUnits, type JsonUnit, type JsonUnitResult } from './input/json-units.js';
export type { TraceInput } from './input/text-chunks.js';
