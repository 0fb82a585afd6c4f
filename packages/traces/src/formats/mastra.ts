/**
 * Mastra's exported spans (`@mastra/observability` exporters), one JSON object per line:
 * `{"id","traceId","parentSpanId","name","type","entityName","startTime","endTime","input","output","errorInfo","isEvent","isRootSpan"}`.
 *
 * @module
 */
import { spanLabel, type SpanRole } from '../span.js';
import { msFromIsoOrEpoch } from '../internal/time.js';
import { addContent, catchSpanError, optionalParentId, requireId, requireTimes, spanFieldError, type MutableSpan, type SpanContext, type SpanReadResult } from './span-fields.js';
import { SPAN_FORMAT_TITLES } from './format-names.js';
import { keysWithRole, orList, type TraceFormatDefinition } from './trace-format.js';

/**
 * Mastra span `type` values and the role they give a span. A model call is `model_inference` (the
 * provider call inside a `model_step`); `model_generation` and `model_step` wrap it and count for
 * nothing, so that each call counts once.
 */
export const MASTRA_SPAN_ROLES: Readonly<Record<string, SpanRole>> = {
  agent_run: 'agent',
  model_inference: 'llm',
  tool_call: 'tool',
  mcp_tool_call: 'tool',
  model_generation: 'other',
  model_step: 'other',
  model_chunk: 'other',
  mapping: 'other',
  processor_run: 'other',
  generic: 'other',
  workflow_run: 'other',
  workflow_step: 'other',
  workflow_conditional: 'other',
  workflow_conditional_eval: 'other',
  workflow_parallel: 'other',
  workflow_loop: 'other',
  workflow_sleep: 'other',
  workflow_wait_event: 'other',
  scorer_run: 'other',
};

/** True when `value` looks like a Mastra exported span: `traceId`, `id`, a string `type` and `startTime`, no OTLP `spanId`. */
export function isMastraSpan(value: Record<string, unknown>): boolean {
  return (
    Object.hasOwn(value, 'traceId') &&
    Object.hasOwn(value, 'id') &&
    typeof value['type'] === 'string' &&
    Object.hasOwn(value, 'startTime') &&
    !Object.hasOwn(value, 'spanId')
  );
}

/**
 * Read one Mastra exported span. An event span (`isEvent: true`, no `endTime`) ends where it starts.
 *
 * @param value - the parsed span
 * @param location - where it was read
 */
export function readMastraSpan(value: Record<string, unknown>, location: string): SpanReadResult {
  return catchSpanError(() => {
    let ctx: SpanContext = { label: 'span', location };
    const rawName = typeof value['entityName'] === 'string' ? value['entityName'] : typeof value['name'] === 'string' ? value['name'] : '';
    const spanId = requireId(value, 'id', ctx);
    const label = (): string => spanLabel({ spanId, name: rawName });
    ctx = { label, location, spanId };
    const traceId = requireId(value, 'traceId', ctx);
    ctx = { label, location, spanId, traceId };
    const type = value['type'];
    if (typeof type !== 'string') throw spanFieldError(ctx, 'type', type, 'a string');
    const parentId = optionalParentId(value, 'parentSpanId', ctx);
    const timed = value['isEvent'] === true && (value['endTime'] === undefined || value['endTime'] === null) ? { ...value, endTime: value['startTime'] } : value;
    const { startMs, endMs } = requireTimes(timed, 'startTime', 'endTime', msFromIsoOrEpoch, ctx);
    const warnings: string[] = [];
    let role = Object.hasOwn(MASTRA_SPAN_ROLES, type) ? MASTRA_SPAN_ROLES[type] : undefined;
    if (role === undefined) {
      warnings.push(`${spanLabel({ spanId, name: rawName })}: unknown Mastra span type ${JSON.stringify(type)}; the span counts as neither agent, model call nor tool call`);
      role = 'other';
    }
    const err = value['errorInfo'];
    const span: MutableSpan = {
      traceId,
      spanId,
      parentId,
      name: rawName,
      role,
      rawKind: type,
      startMs,
      endMs,
      error: err !== undefined && err !== null,
      format: 'mastra',
      location,
      warnings,
    };
    addContent(span, value['input'], value['output']);
    return span;
  });
}

/** Mastra exported spans. */
export const MASTRA_FORMAT: TraceFormatDefinition<'mastra'> = {
  name: 'mastra',
  title: SPAN_FORMAT_TITLES['mastra'],
  shape: 'a Mastra span',
  expected: 'a Mastra exported span ({"id", "traceId", "type", "startTime", …})',
  detect: isMastraSpan,
  read: (value, location) => [readMastraSpan(value, location)],
  parentField: 'parentSpanId',
  modelCalls: [`a Mastra ${orList(keysWithRole(MASTRA_SPAN_ROLES, 'llm'))} span`],
  toolCalls: [`a Mastra ${orList(keysWithRole(MASTRA_SPAN_ROLES, 'tool'))} span`],
};
