/**
 * The error raised for a malformed trace.
 *
 * @module
 */
import { ParlInputError, type ParlErrorCode } from '@parl/core';

/**
 * A malformed trace, span or line: a `ParlInputError` (from `@parl/core`) that also names the trace and span.
 * Its message reads like
 * `line 7: span 5b8aa5a2d2c872e8 ("researcher").endTimeUnixNano must be at or after the start (…), got …`.
 *
 * @example
 * ```ts
 * try {
 *   for await (const r of readTraces(stream)) use(r);
 * } catch (err) {
 *   if (err instanceof TraceInputError) console.error(err.traceId, err.spanId, err.message);
 * }
 * ```
 */
export class TraceInputError extends ParlInputError {
  /** The trace the problem is in, when known. */
  readonly traceId: string | undefined;
  /** The span the problem is in, when known. */
  readonly spanId: string | undefined;

  /**
   * @param field - what is wrong, e.g. `span 5b8a… ("writer").parentSpanId`
   * @param value - the value received
   * @param expected - what was expected, in words
   * @param location - where it was read (`line 7`), if known
   * @param ids - the trace and span ids, if known
   * @param code - the stable code; by default as {@link @parl/core!ParlInputError.code} says
   */
  constructor(
    field: string,
    value: unknown,
    expected: string,
    location: string | undefined,
    ids: { readonly traceId?: string | undefined; readonly spanId?: string | undefined } = {},
    code?: ParlErrorCode,
  ) {
    super(field, value, expected, location, code);
    this.name = 'TraceInputError';
    this.traceId = ids.traceId;
    this.spanId = ids.spanId;
  }
}
