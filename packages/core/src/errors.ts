/**
 * Input errors and the checks that raise them.
 *
 * Every check names the field path, the value it got and what it expected, so that a bad record
 * in a million-line JSONL file can be found and fixed from the message alone.
 *
 * @module
 */

/**
 * The stable codes of {@link ParlInputError}: match on these, never on message text (messages may
 * be reworded; codes only ever gain members).
 *
 * - `PARL_ERR_MISSING_FIELD`: a field that is needed is absent
 * - `PARL_ERR_INVALID_VALUE`: a value of the wrong type, range or shape (the default)
 * - `PARL_ERR_UNKNOWN_NAME`: a field, flag, query parameter or config key that does not exist
 *   (the message suggests the closest known name when there is one)
 * - `PARL_ERR_CONFLICT`: two inputs that exclude each other (r_perf given two ways, `steps` and
 *   `stages` in one entry)
 * - `PARL_ERR_PARSE`: bytes that do not parse (not JSON, a damaged Arrow or Parquet file)
 * - `PARL_ERR_LIMIT`: input beyond a stated bound (too deep, too large, too many)
 * - `PARL_ERR_NO_STEPS`: a trace without any step information (spec §7; `@parl/traces`'
 *   `NoStepInformationError`, a warning unless `strict`)
 *
 * The codes of every PARL-TS error class are listed in one table, docs/errors.md.
 */
export const PARL_ERROR_CODES = [
  'PARL_ERR_MISSING_FIELD',
  'PARL_ERR_INVALID_VALUE',
  'PARL_ERR_UNKNOWN_NAME',
  'PARL_ERR_CONFLICT',
  'PARL_ERR_PARSE',
  'PARL_ERR_LIMIT',
  'PARL_ERR_NO_STEPS',
] as const;

/** One of {@link PARL_ERROR_CODES}. */
export type ParlErrorCode = (typeof PARL_ERROR_CODES)[number];

/**
 * Raised whenever input to a PARL computation is invalid. The message reads like
 * `line 17: stages[2].sub_steps[0] must be a finite number ≥ 0, got -3`.
 *
 * @example
 * ```ts
 * try {
 *   criticalSteps([{ main_steps: -1, sub_steps: [] }]);
 * } catch (err) {
 *   if (err instanceof ParlInputError) console.error(err.code, err.field, err.expected);
 * }
 * ```
 */
export class ParlInputError extends Error {
  /**
   * The codes this class's errors carry: {@link PARL_ERROR_CODES} but `PARL_ERR_NO_STEPS`, which only
   * `@parl/traces`' `NoStepInformationError` carries (docs/errors.md lists every class's codes).
   */
  static readonly codes: readonly ParlErrorCode[] = PARL_ERROR_CODES.filter((code) => code !== 'PARL_ERR_NO_STEPS');
  /** The field path inside the record, e.g. `stages[2].sub_steps[0]`. */
  readonly field: string;
  /** The offending value as it was received. */
  readonly value: unknown;
  /** What was expected, in words, e.g. `a finite number ≥ 0`. */
  readonly expected: string;
  /** Where the record came from, e.g. `line 17`; undefined when unknown. */
  readonly location: string | undefined;
  /**
   * The stable code of this kind of error (one of `PARL_ERROR_CODES`); by default
   * `PARL_ERR_MISSING_FIELD` when the value is undefined, else `PARL_ERR_INVALID_VALUE`.
   */
  readonly code: ParlErrorCode;

  /**
   * @param field - path of the offending field
   * @param value - the value received
   * @param expected - what was expected, in words
   * @param location - where the record came from (`line 17`, `record 3`), if known
   * @param code - the stable code; by default derived from `value` as {@link ParlInputError.code} says
   */
  constructor(field: string, value: unknown, expected: string, location?: string, code?: ParlErrorCode) {
    super(formatInputError(field, value, expected, location));
    this.name = 'ParlInputError';
    this.field = field;
    this.value = value;
    this.expected = expected;
    this.location = location;
    this.code = code ?? (value === undefined ? 'PARL_ERR_MISSING_FIELD' : 'PARL_ERR_INVALID_VALUE');
  }

  /**
   * A copy of this error located at `location` (e.g. `line 17`), for readers that only learn
   * the location after validation failed.
   */
  at(location: string): ParlInputError {
    return new ParlInputError(this.field, this.value, this.expected, location, this.code);
  }
}

/** Render a value for an error message: short, unambiguous, never throwing. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined (missing)';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    // A cycle, a BigInt inside, or nesting deeper than the stack: String() may fail the same way.
    return Array.isArray(value) ? '(an array that cannot be shown)' : `(${typeof value} that cannot be shown)`;
  }
}

function formatInputError(field: string, value: unknown, expected: string, location?: string): string {
  const prefix = location === undefined ? '' : `${location}: `;
  return `${prefix}${field} must be ${expected}, got ${describeValue(value)}`;
}

/** Join a parent path and a child key into a field path (`stages[2]` + `main_steps`). */
export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** Require a finite number; returns it typed. */
export function requireFinite(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ParlInputError(field, value, 'a finite number');
  }
  return value;
}

/** Require a finite number ≥ 0 (steps, counts, budgets). */
export function requireNonNegative(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ParlInputError(field, value, 'a finite number ≥ 0');
  }
  return value;
}

/** Require a finite number > 0. */
export function requirePositive(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ParlInputError(field, value, 'a finite number > 0');
  }
  return value;
}

/** Require an integer ≥ 0 (counts of sub-agents or subtasks). */
export function requireCount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ParlInputError(field, value, 'an integer ≥ 0');
  }
  return value;
}

/** Require an integer ≥ 1. */
export function requirePositiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ParlInputError(field, value, 'an integer ≥ 1');
  }
  return value;
}

/** Require an array. */
export function requireArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ParlInputError(field, value, 'an array');
  return value;
}

/** Require a plain object (not null, not an array). */
export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParlInputError(field, value, 'an object');
  }
  return value as Record<string, unknown>;
}

/** Require one of a fixed set of strings. */
export function requireOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ParlInputError(field, value, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }
  return value as T;
}
