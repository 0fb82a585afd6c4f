/**
 * OpenAI Agents SDK trace exports: the items its tracing processors receive and its exporter
 * sends (`{"object":"trace.span","id","trace_id","parent_id","started_at","ended_at","span_data","error"}`),
 * one per line or wrapped as `{"data":[…]}`.
 *
 * @module
 */
import { spanLabel, type SpanRole } from '../span.js';
import { msFromIsoOrEpoch } from '../internal/time.js';
import {
  addContent,
  catchSpanError,
  optionalParentId,
  requireId,
  requireTimes,
  spanFieldError,
  type MutableSpan,
  type SpanContext,
  type SpanReadResult,
} from './span-fields.js';
import { SPAN_FORMAT_TITLES } from './format-names.js';
import { keysWithRole, orList, type TraceFormatDefinition } from './trace-format.js';

/** The custom span `data.sdk_span_type` that marks one model call of an agent (SDK 0.20+). */
const TURN_SPAN_TYPE = 'turn';

/** `span_data.type` values and the role they give a span. */
export const OPENAI_AGENTS_SPAN_ROLES: Readonly<Record<string, SpanRole>> = {
  agent: 'agent',
  generation: 'llm',
  response: 'llm',
  function: 'tool',
  handoff: 'handoff',
  custom: 'other',
  // A custom span with data.sdk_span_type "turn" is one model call of its agent (see readOpenAiAgentsItem).
  guardrail: 'other',
  task: 'other',
  turn: 'other',
  transcription: 'other',
  speech: 'other',
  speech_group: 'other',
  mcp_tools: 'other',
};

/** True when `value` looks like an OpenAI Agents SDK trace or span item. */
export function isOpenAiAgentsItem(value: Record<string, unknown>): boolean {
  return value['object'] === 'trace.span' || value['object'] === 'trace' || 'span_data' in value;
}

/**
 * Read one OpenAI Agents SDK item. A `trace` item carries no span and gives an empty list.
 *
 * @param value - the parsed item
 * @param location - where it was read
 */
export function readOpenAiAgentsItem(value: Record<string, unknown>, location: string): SpanReadResult[] {
  if (value['object'] === 'trace') return [];
  return [
    catchSpanError(() => {
      let ctx: SpanContext = { label: 'span', location };
      const data = value['span_data'];
      const d = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
      const dataName = d !== undefined && typeof d['name'] === 'string' ? d['name'] : '';
      const spanId = requireId(value, 'id', ctx);
      const label = (): string => spanLabel({ spanId, name: dataName });
      ctx = { label, location, spanId };
      const traceId = requireId(value, 'trace_id', ctx);
      ctx = { label, location, spanId, traceId };
      if (d === undefined) throw spanFieldError(ctx, 'span_data', data, 'an object with a "type"');
      const type = d['type'];
      if (typeof type !== 'string') throw spanFieldError(ctx, 'span_data.type', type, 'a string');
      const parentId = optionalParentId(value, 'parent_id', ctx);
      const { startMs, endMs } = requireTimes(value, 'started_at', 'ended_at', msFromIsoOrEpoch, ctx);
      const warnings: string[] = [];
      // The SDK (0.20+) marks each model call of an agent with a custom "turn" span; a `response` or
      // `generation` span inside it (OpenAI model classes) is the same call, counted once.
      const custom = type === 'custom' && typeof d['data'] === 'object' && d['data'] !== null ? (d['data'] as Record<string, unknown>)['sdk_span_type'] : undefined;
      let role: SpanRole | undefined = custom === TURN_SPAN_TYPE ? 'llm' : Object.hasOwn(OPENAI_AGENTS_SPAN_ROLES, type) ? OPENAI_AGENTS_SPAN_ROLES[type] : undefined;
      if (role === undefined) {
        warnings.push(`${spanLabel({ spanId, name: dataName })}: unknown span_data.type ${JSON.stringify(type)}; the span counts as neither agent, LLM call nor tool call`);
        role = 'other';
      }
      const rawKind = typeof custom === 'string' ? custom : type;
      const name =
        type === 'handoff' && typeof d['from_agent'] === 'string'
          ? `${d['from_agent']} → ${typeof d['to_agent'] === 'string' ? d['to_agent'] : '?'}`
          : dataName;
      const err = value['error'];
      const span: MutableSpan = {
        traceId,
        spanId,
        parentId,
        name,
        role,
        rawKind,
        startMs,
        endMs,
        error: err !== undefined && err !== null,
        format: 'openai-agents',
        location,
        warnings,
      };
      addContent(span, d['input'], d['output']);
      return span;
    }),
  ];
}

/** OpenAI Agents SDK trace exports. */
export const OPENAI_AGENTS_FORMAT: TraceFormatDefinition<'openai-agents'> = {
  name: 'openai-agents',
  title: SPAN_FORMAT_TITLES['openai-agents'],
  shape: 'an OpenAI Agents item',
  expected: 'an OpenAI Agents SDK item ({"object": "trace.span", "span_data": …}) or {"data": [items]}',
  detect: isOpenAiAgentsItem,
  read: readOpenAiAgentsItem,
  wrappers: ['data'],
  parentField: 'parent_id',
  modelCalls: [`an OpenAI Agents ${orList(keysWithRole(OPENAI_AGENTS_SPAN_ROLES, 'llm'))} span or custom ${TURN_SPAN_TYPE} span`],
  toolCalls: [`an OpenAI Agents ${orList(keysWithRole(OPENAI_AGENTS_SPAN_ROLES, 'tool'))} span`],
};
