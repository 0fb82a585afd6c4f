/**
 * Recognising the format of one JSON value, and reading it into spans or a native record.
 *
 * @module
 */
import { EPISODE_RECORD_FIELDS } from '@parl/core';
import { TraceInputError } from '../errors.js';
import type { ConcreteTraceFormat, TraceFormat } from '../options.js';
import { formatNamed, SPAN_FORMATS } from './registry.js';
import type { SpanReadResult } from './span-fields.js';
import { orList, type TraceFormatDefinition } from './trace-format.js';

/** What one JSON value holds: spans (or span errors), a native spec §5 record, or something no format recognises. */
export type DecodedItem =
  | { readonly kind: 'span'; readonly result: SpanReadResult }
  | { readonly kind: 'record'; readonly record: Record<string, unknown>; readonly location: string }
  | { readonly kind: 'unrecognised'; readonly message: string; readonly location: string }
  | { readonly kind: 'error'; readonly error: TraceInputError };

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
 * read as a spec §5 record): the first format of the registry whose `detect` accepts it.
 *
 * @param value - the object
 * @param formats - the formats to try, in order (default: the registry's; see `withTraceFormats`)
 * @example
 * ```ts
 * detectFormat({ resourceSpans: [] }); // 'otlp'
 * detectFormat({ run_type: 'llm' });   // 'langsmith'
 * ```
 */
export function detectFormat(value: Record<string, unknown>, formats?: readonly TraceFormatDefinition[]): Exclude<ConcreteTraceFormat, 'parl'> | undefined {
  return detectDefinition(value, formats ?? SPAN_FORMATS)?.name as Exclude<ConcreteTraceFormat, 'parl'> | undefined;
}

function detectDefinition(value: Record<string, unknown>, formats: readonly TraceFormatDefinition[]): TraceFormatDefinition | undefined {
  return formats.find((format) => format.detect(value));
}

/** The array of the first wrapper key (of any format, in registry order) that `value` holds one under. */
function wrappedList(value: Record<string, unknown>, formats: readonly TraceFormatDefinition[]): unknown[] | undefined {
  for (const format of formats) {
    for (const key of format.wrappers ?? []) {
      const list = value[key];
      if (Array.isArray(list)) return list;
    }
  }
  return undefined;
}

/** A spec §5 record, as the last of the shapes `auto` reads. */
const RECORD_SHAPE = 'a spec §5 record';

/** What a value read as `format` must be. */
function expectedOf(format: string, formats: readonly TraceFormatDefinition[]): string {
  if (format === 'auto') return `a JSON object (${orList([...formats.map((f) => f.shape), RECORD_SHAPE])})`;
  return formatNamed(format, formats)?.expected ?? 'a spec §5 episode record (a JSON object)';
}

/**
 * Read one JSON value in the given format (`auto`: detected per object). Arrays and
 * `{"data": […]}` / `{"runs": […]}` wrappers are read element by element.
 *
 * @param value - the parsed value
 * @param location - where it was read
 * @param format - the format to read it as (a registry name, `auto` or `parl`)
 * @param formats - the span formats, in detection order (default: the registry's; see `withTraceFormats`)
 */
export function decodeUnit(value: unknown, location: string, format: TraceFormat | (string & {}), formats?: readonly TraceFormatDefinition[]): DecodedItem[] {
  const out: DecodedItem[] = [];
  decodeInto(value, location, format, formats ?? SPAN_FORMATS, out, 0);
  return out;
}

function decodeInto(value: unknown, location: string, format: string, formats: readonly TraceFormatDefinition[], out: DecodedItem[], depth: number): void {
  if (Array.isArray(value) && depth < 2) {
    for (const element of value) decodeInto(element, location, format, formats, out, depth + 1);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push({ kind: 'error', error: new TraceInputError('(value)', value, expectedOf(format, formats), location) });
    return;
  }
  const v = value as Record<string, unknown>;
  const detected = detectDefinition(v, formats);
  if (detected === undefined && format !== 'parl' && depth < 2) {
    // Wrappers (the registry's): the OpenAI Agents exporter payload {"data": […]}, a LangSmith list {"runs": […]}.
    const list = wrappedList(v, formats);
    if (list !== undefined) {
      for (const element of list) decodeInto(element, location, format, formats, out, depth + 1);
      return;
    }
  }
  if (format === 'auto' && detected === undefined && !isRecordLike(v)) {
    out.push({
      kind: 'unrecognised',
      location,
      message: `${location}: a JSON object that no format recognises (${keysOf(v)}): not ${orList([...formats.map((f) => f.shape), RECORD_SHAPE])}; ignored`,
    });
    return;
  }
  if (format === 'parl' || (format === 'auto' && detected === undefined)) {
    out.push({ kind: 'record', record: v, location });
    return;
  }
  if (detected === undefined || (format !== 'auto' && detected.name !== format)) {
    out.push({ kind: 'error', error: new TraceInputError('(value)', value, expectedOf(format, formats), location) });
    return;
  }
  for (const result of detected.read(v, location)) out.push({ kind: 'span', result });
}
