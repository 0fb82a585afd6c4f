/**
 * Field checks shared by the span readers: each failure is a {@link TraceInputError} naming the
 * span, the field and the value.
 *
 * @module
 */
import { TraceInputError } from '../errors.js';
import { contentText, type TraceSpan } from '../span.js';

/** What a reader knows about a span while checking its fields. */
export interface SpanContext {
  /** `span <id> ("name")` (built only when a message needs it), or `span` before the id is known. */
  readonly label: string | (() => string);
  /** Where the span was read. */
  readonly location: string;
  /** The trace id, once known. */
  readonly traceId?: string | undefined;
  /** The span id, once known. */
  readonly spanId?: string | undefined;
}

/** A span read from input, or the reason it could not be read. */
export type SpanReadResult = TraceSpan | TraceInputError;

/** The error for field `field` of the span in `ctx`. */
export function spanFieldError(ctx: SpanContext, field: string, value: unknown, expected: string): TraceInputError {
  const label = typeof ctx.label === 'string' ? ctx.label : ctx.label();
  return new TraceInputError(`${label}.${field}`, value, expected, ctx.location, {
    traceId: ctx.traceId,
    spanId: ctx.spanId,
  });
}

/** A non-empty string id field, or a thrown {@link TraceInputError}. */
export function requireId(obj: Record<string, unknown>, field: string, ctx: SpanContext): string {
  const v = obj[field];
  if (typeof v !== 'string' || v === '') throw spanFieldError(ctx, field, v, 'a non-empty id string');
  return v;
}

/** An optional parent id: undefined for missing, null or `""`; otherwise a string. */
export function optionalParentId(obj: Record<string, unknown>, field: string, ctx: SpanContext): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw spanFieldError(ctx, field, v, 'a span id string, null or absent');
  return v;
}

/**
 * Check a span's start and end: both readable, end at or after start.
 *
 * @param read - turns a raw time into ms (undefined when unreadable)
 */
export function requireTimes(
  obj: Record<string, unknown>,
  startField: string,
  endField: string,
  read: (value: unknown) => number | undefined,
  ctx: SpanContext,
): { startMs: number; endMs: number } {
  const startMs = read(obj[startField]);
  if (startMs === undefined) throw spanFieldError(ctx, startField, obj[startField], 'a timestamp');
  const rawEnd = obj[endField];
  if (rawEnd === undefined || rawEnd === null) {
    throw spanFieldError(ctx, endField, rawEnd, 'a timestamp (the span never ended: the trace is incomplete)');
  }
  const endMs = read(rawEnd);
  if (endMs === undefined) throw spanFieldError(ctx, endField, rawEnd, 'a timestamp');
  if (endMs < startMs) {
    throw spanFieldError(ctx, endField, rawEnd, `at or after the span's start (${String(obj[startField])}): a span cannot end before it starts`);
  }
  return { startMs, endMs };
}

/** Run `read` and turn a thrown {@link TraceInputError} into a returned one. */
export function catchSpanError(read: () => TraceSpan): SpanReadResult {
  try {
    return read();
  } catch (err) {
    if (err instanceof TraceInputError) return err;
    throw err;
  }
}

/** A {@link TraceSpan} while a reader fills it in. */
export type MutableSpan = { -readonly [K in keyof TraceSpan]: TraceSpan[K] };

/**
 * Set the span's `input` and `output` to the captured content (see `contentText`), leaving out
 * what was not captured. Assigned, not spread: readers run this for every span.
 */
export function addContent(span: MutableSpan, input: unknown, output: unknown): void {
  const i = contentText(input);
  if (i !== undefined) span.input = i;
  const o = contentText(output);
  if (o !== undefined) span.output = o;
}
