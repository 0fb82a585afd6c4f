/**
 * Recognising the format of one JSON value, and reading it into spans or a native record.
 *
 * @module
 */
import { EPISODE_RECORD_FIELDS } from '@parl/core';
import { TraceInputError } from '../errors.js';
import type { ConcreteTraceFormat, TraceFormat } from '../options.js';
import { isLangSmithRun, readLangSmithRun } from './langsmith.js';
import { isMastraSpan, readMastraSpan } from './mastra.js';
import { isOpenAiAgentsItem, readOpenAiAgentsItem } from './openai-agents.js';
import { readOtlpRequest, readOtlpSpan } from './otlp.js';
import type { SpanReadResult } from './span-fields.js';

/** What one JSON value holds: spans (or span errors), a native spec §5 record, or something no format recognises. */
export type DecodedItem =
  | { readonly kind: 'span'; readonly result: SpanReadResult }
  | { readonly kind: 'record'; readonly record: Record<string, unknown>; readonly location: string }
  | { readonly kind: 'unrecognised'; readonly message: string; readonly location: string }
  | { readonly kind: 'error'; readonly error: TraceInputError };

/** Fields that only OTLP spans have: one of them makes an object an OTLP span (checked, not echoed as a record). */
const OTLP_SPAN_KEYS = ['spanId', 'startTimeUnixNano', 'endTimeUnixNano', 'parentSpanId', 'traceState', 'droppedAttributesCount'] as const;

function isOtlpSpan(v: Record<string, unknown>): boolean {
  return OTLP_SPAN_KEYS.some((k) => Object.hasOwn(v, k)) || (Object.hasOwn(v, 'traceId') && Object.hasOwn(v, 'kind') && Object.hasOwn(v, 'attributes'));
}

/**
 * Spec §5 fields (inputs and computed) other than `id`: an object with none of them is not read as
 * a record under `auto`. The input fields are core's list; the computed ones are those a labelled
 * record always carries.
 */
export const RECORD_FIELDS: readonly string[] = [
  ...EPISODE_RECORD_FIELDS.filter((field) => field !== 'id'),
  'critical_steps',
  'total_steps',
  'total_reward',
];

function isRecordLike(v: Record<string, unknown>): boolean {
  return RECORD_FIELDS.some((k) => Object.hasOwn(v, k));
}

function keysOf(v: Record<string, unknown>): string {
  const keys = Object.keys(v);
  const shown = keys.slice(0, 6).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k));
  return keys.length === 0 ? 'no keys' : `keys ${shown.join(', ')}${keys.length > 6 ? `, … (${keys.length} in all)` : ''}`;
}

/**
 * The format of one JSON object, or undefined when it is none of the trace formats (it is then
 * read as a spec §5 record).
 *
 * @example
 * ```ts
 * detectFormat({ resourceSpans: [] }); // 'otlp'
 * detectFormat({ run_type: 'llm' });   // 'langsmith'
 * ```
 */
export function detectFormat(value: Record<string, unknown>): Exclude<ConcreteTraceFormat, 'parl'> | undefined {
  if (Object.hasOwn(value, 'resourceSpans')) return 'otlp';
  if (isMastraSpan(value)) return 'mastra';
  if (isOtlpSpan(value)) return 'otlp';
  if (isOpenAiAgentsItem(value)) return 'openai-agents';
  if (isLangSmithRun(value)) return 'langsmith';
  return undefined;
}

const EXPECTED: Readonly<Record<ConcreteTraceFormat, string>> = {
  otlp: 'an OTLP export request ({"resourceSpans": …}) or an OTLP span ({"traceId", "spanId", …})',
  'openai-agents': 'an OpenAI Agents SDK item ({"object": "trace.span", "span_data": …}) or {"data": [items]}',
  langsmith: 'a LangSmith run ({"id", "run_type", "start_time", …})',
  mastra: 'a Mastra exported span ({"id", "traceId", "type", "startTime", …})',
  parl: 'a spec §5 episode record (a JSON object)',
};

/**
 * Read one JSON value in the given format (`auto`: detected per object). Arrays and
 * `{"data": […]}` / `{"runs": […]}` wrappers are read element by element.
 *
 * @param value - the parsed value
 * @param location - where it was read
 * @param format - the format to read it as
 */
export function decodeUnit(value: unknown, location: string, format: TraceFormat): DecodedItem[] {
  const out: DecodedItem[] = [];
  decodeInto(value, location, format, out, 0);
  return out;
}

function decodeInto(value: unknown, location: string, format: TraceFormat, out: DecodedItem[], depth: number): void {
  if (Array.isArray(value) && depth < 2) {
    for (const element of value) decodeInto(element, location, format, out, depth + 1);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const expected = format === 'auto' ? 'a JSON object (an OTLP request or span, an OpenAI Agents item, a LangSmith run or a spec §5 record)' : EXPECTED[format];
    out.push({ kind: 'error', error: new TraceInputError('(value)', value, expected, location) });
    return;
  }
  const v = value as Record<string, unknown>;
  const detected = detectFormat(v);
  if (detected === undefined && format !== 'parl' && depth < 2) {
    // Wrappers: the OpenAI Agents exporter payload {"data": […]}, a LangSmith list {"runs": […]}.
    const list = Array.isArray(v['data']) ? v['data'] : Array.isArray(v['runs']) ? v['runs'] : undefined;
    if (list !== undefined) {
      for (const element of list) decodeInto(element, location, format, out, depth + 1);
      return;
    }
  }
  if (format === 'auto' && detected === undefined && !isRecordLike(v)) {
    out.push({
      kind: 'unrecognised',
      location,
      message: `${location}: a JSON object that no format recognises (${keysOf(v)}): not an OTLP span or request, OpenAI Agents item, LangSmith run, Mastra span or spec §5 record; ignored`,
    });
    return;
  }
  const effective = format === 'auto' ? (detected ?? 'parl') : format;
  if (format !== 'auto' && format !== 'parl' && detected !== format) {
    out.push({ kind: 'error', error: new TraceInputError('(value)', value, EXPECTED[format], location) });
    return;
  }
  switch (effective) {
    case 'otlp':
      for (const result of 'resourceSpans' in v ? readOtlpRequest(v, location) : [readOtlpSpan(v, location)]) {
        out.push({ kind: 'span', result });
      }
      return;
    case 'openai-agents':
      for (const result of readOpenAiAgentsItem(v, location)) out.push({ kind: 'span', result });
      return;
    case 'langsmith':
      for (const result of readLangSmithRun(v, location)) out.push({ kind: 'span', result });
      return;
    case 'mastra':
      out.push({ kind: 'span', result: readMastraSpan(v, location) });
      return;
    case 'parl':
      out.push({ kind: 'record', record: v, location });
      return;
  }
}
