/**
 * Reading timestamps of the supported formats into milliseconds since the Unix epoch.
 *
 * @module
 */

const ZONE_SUFFIX = /(?:z|[+-]\d\d:?\d\d)$/i;
const DIGITS = /^\d+$/;
/** Nanosecond strings up to 19 digits (the year 2286) are read; OTLP's fixed64 never has more than 20. */
const MAX_NANO_DIGITS = 19;
const MAX_NANO_NUMBER = 1e19;

/**
 * Milliseconds from an OTLP `*TimeUnixNano` value (a decimal string or a number of nanoseconds).
 * Strings are read exactly to the microsecond (the nanosecond digits are dropped).
 *
 * @returns the time in ms, or undefined when the value is not a non-negative integer of at most
 *   19 digits (a longer value is no time: it would overflow)
 */
export function msFromUnixNano(value: unknown): number | undefined {
  if (typeof value === 'string' && DIGITS.test(value)) {
    // Whole microseconds since the epoch stay below 2^53 until the year 2255: exact as a number.
    // Longer strings (a 400-digit value would be Infinity) are not a time.
    if (value.length > MAX_NANO_DIGITS) return undefined;
    return value.length <= 3 ? 0 : Number(value.slice(0, -3)) / 1000;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_NANO_NUMBER) return value / 1e6;
  return undefined;
}

/**
 * Milliseconds from an ISO 8601 date-time (`2025-06-01T12:00:00.123Z`; a time without a zone is
 * read as UTC, as LangSmith writes it) or from a number of epoch milliseconds.
 *
 * @returns the time in ms, or undefined when the value is not a readable time
 */
export function msFromIsoOrEpoch(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.length < 10) return undefined;
  const text = ZONE_SUFFIX.test(value) || value.length === 10 ? value : `${value}Z`;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
