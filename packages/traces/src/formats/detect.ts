/**
 * Recognising the format of one JSON value, and reading it into spans or a native record.
 *
 * @module
 */
import { TraceInputError } from '../errors.js';
import type { ConcreteTraceFormat, TraceFormat } from '../options.js';
import { isLangSmithRun, readLangSmithRun } from './langsmith.js';
import { isOpenAiAgentsItem, readOpenAiAgentsItem } from './openai-agents.js';
import { readOtlpRequest, readOtlpSpan } from './otlp.js';
import type { SpanReadResult } from './span-fields.js';

/** What one JSON value holds: spans (or span errors), or a native spec §5 record. */
export type DecodedItem =
  | { readonly kind: 'span'; readonly result: SpanReadResult }
  | { readonly kind: 'record'; readonly record: Record<string, unknown>; readonly location: string }
  | { readonly kind: 'error'; readonly error: TraceInputError };

function isOtlpSpan(v: Record<string, unknown>): boolean {
  return 'spanId' in v && 'traceId' in v;
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
  if ('resourceSpans' in value || isOtlpSpan(value)) return 'otlp';
  if (isOpenAiAgentsItem(value)) return 'openai-agents';
  if (isLangSmithRun(value)) return 'langsmith';
  return undefined;
}

const EXPECTED: Readonly<Record<ConcreteTraceFormat, string>> = {
  otlp: 'an OTLP export request ({"resourceSpans": …}) or an OTLP span ({"traceId", "spanId", …})',
  'openai-agents': 'an OpenAI Agents SDK item ({"object": "trace.span", "span_data": …}) or {"data": [items]}',
  langsmith: 'a LangSmith run ({"id", "run_type", "start_time", …})',
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
    case 'parl':
      out.push({ kind: 'record', record: v, location });
      return;
  }
}
