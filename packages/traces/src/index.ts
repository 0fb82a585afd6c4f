/**
 * `@parl/traces`: agent traces (OpenTelemetry spans as OTLP JSON — GenAI conventions, the Vercel
 * AI SDK's `ai.*` spans, OpenInference —, OpenAI Agents SDK trace exports, LangSmith runs, Mastra
 * exported spans) into PARL spec §5 episode records as run, with a serial-collapse finding per
 * trace; and live processors for the OpenTelemetry and OpenAI Agents SDKs. Streams trace by trace; computes no PARL quantity itself (critical steps come from
 * `@parl/core`).
 *
 * @packageDocumentation
 */
export {
  DEFAULT_TRACE_OPTIONS,
  resolveTraceOptions,
  TRACE_CLOCKS,
  TRACE_FORMATS,
  TRACE_GROUPINGS,
  TRACE_MALFORMED_POLICIES,
  TRACE_ORDERINGS,
  TRACE_OPTIONS,
  TRACE_REPORT_OPTIONS,
  TRACE_STEP_SOURCES,
  type ConcreteTraceFormat,
  type ResolvedTraceOptions,
  type TraceClock,
  type TraceFormat,
  type TraceGrouping,
  type TraceMalformedPolicy,
  type TraceOptions,
  type TraceOrdering,
  type TraceReadingOptions,
  type TraceStepSource,
} from './options.js';
export {
  TraceInputError,
} from './errors.js';
export {
  contentText,
  MAX_CONTENT_CHARS,
  spanLabel,
  type SpanRole,
  type TraceSpan,
} from './span.js';
export {
  readTraces,
} from './read-traces.js';
export {
  recordToResult,
  traceToResult,
  type TraceResult,
} from './trace-result.js';
export {
  recordFinding,
  SERIAL_PATTERN_KINDS,
  serialCollapseFinding,
  type NestedEntryRef,
  type SerialCollapseFinding,
  type SerialPattern,
  type SerialPatternKind,
} from './finding.js';
export { mapTrace, stagesOf, type SubAgentRef, type TurnGroup, type TraceMapping, type CapturedContent } from './mapping.js';
export { effectiveRoles, countedModelCalls } from './roles.js';
export { modelCallShapes, NoStepInformationError, toolCallShapes } from './no-steps.js';
export { independenceOf, quotes, MIN_QUOTE_CHARS, QUOTE_WINDOW_CHARS, type Independence } from './independence.js';
export { buildTraceTree, type TraceTree } from './trace-tree.js';
export { TraceCollector, type CollectedTrace } from './trace-collector.js';
export { detectFormat, decodeUnit, RECORD_FIELDS, type DecodedItem } from './formats/detect.js';
export { SPAN_FORMATS, TRACE_FORMAT_REGISTRY, withTraceFormats } from './formats/registry.js';
export { SPAN_FORMAT_TITLES, type SpanFormatName } from './formats/format-names.js';
export type { TraceFormatDefinition } from './formats/trace-format.js';
export { traceFormatsMarkdown } from './formats/format-table.js';
export { readOtlpSpan, readOtlpRequest, OTEL_OPERATION_ROLES, AI_SDK_OPERATION_ROLES, SPAN_KIND_ROLES } from './formats/otlp.js';
export { readMastraSpan, isMastraSpan, MASTRA_SPAN_ROLES } from './formats/mastra.js';
export { readOpenAiAgentsItem, OPENAI_AGENTS_SPAN_ROLES } from './formats/openai-agents.js';
export { readLangSmithRun, idsOfDottedOrder, LANGSMITH_RUN_ROLES } from './formats/langsmith.js';
export { MAX_OPEN_LANGSMITH_RUNS } from './formats/langsmith-operations.js';
export type { SpanReadResult } from './formats/span-fields.js';
export { jsonUnits, type JsonUnit, type JsonUnitResult } from './input/json-units.js';
export type { TraceInput } from './input/text-chunks.js';
export { ParlSpanProcessor, otlpJsonOfSpan, type ReadableSpanLike } from './live/otel-span-processor.js';
export { ParlTracingProcessor, type AgentsTraceLike, type AgentsSpanLike } from './live/openai-agents-processor.js';
export { LiveTraceAssembler } from './live/live-assembler.js';
export {
  DEFAULT_REPORT_DRAWN,
  MAX_REPORT_DRAWN,
  TRACE_REPORT_SIZE_BOUND,
  TraceReportBuilder,
  traceReportHtml,
  type TraceReportEntry,
  type TraceReportOptions,
} from './report/trace-report.js';
export { LiveTraceIntake, type LiveIntakeOptions } from './live/live-intake.js';
export { DEFAULT_LIVE_OPTIONS, checkLiveOptions, type LiveBounds, type LiveDropReason, type LiveTraceOptions } from './live/live-options.js';
export { parseExportRequest, readExportRequest, type OtlpEncoding, type OtlpExportRead, type OtlpReadLimits } from './otlp/export-request.js';
export { MAX_ATTRIBUTE_DEPTH } from './otlp/attribute-depth.js';
export { decodeOtlpProtobuf, encodeOtlpResponse } from './otlp/protobuf-request.js';
export { MAX_PROTOBUF_MESSAGE_BYTES, traceFileShape, type TraceFileShape } from './otlp/protobuf-file.js';
