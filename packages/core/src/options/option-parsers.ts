/**
 * Parsers for option texts, shared by the option tables of every package: each reads the text of
 * a flag or query parameter, or throws {@link ParlInputError} naming the option, the text and what
 * was expected. Numbers are decimal only (`0x10`, `Infinity` and blank are refused).
 *
 * @module
 */
import { parseDecimal } from '../decimal.js';
import { ParlInputError } from '../errors.js';
import { parseSchedule, type ScheduleSpec } from '../schedules.js';

/** A parser of one option's text; `field` is the option's name as an error shows it (`--port`). */
export type OptionParser<T> = (text: string, field: string) => T;

function decimalWhere(ok: (n: number) => boolean, expected: string): OptionParser<number> {
  return (text, field) => {
    const n = parseDecimal(text);
    if (!ok(n)) throw new ParlInputError(field, text, expected);
    return n;
  };
}

/** A decimal number ≥ 0 (budgets, steps). */
export const nonNegativeDecimalOption: OptionParser<number> = decimalWhere((n) => Number.isFinite(n) && n >= 0, 'a decimal number ≥ 0');

/** A decimal number > 0 (max sub-agents, total steps, timeouts). */
export const positiveDecimalOption: OptionParser<number> = decimalWhere((n) => Number.isFinite(n) && n > 0, 'a decimal number > 0');

/** A decimal integer ≥ 1 (training steps, episodes, limits). */
export const positiveIntegerOption: OptionParser<number> = decimalWhere((n) => Number.isSafeInteger(n) && n >= 1, 'a decimal integer ≥ 1');

/**
 * A decimal integer from `min` to `max` (both included); with `max` absent, any safe integer ≥ `min`.
 *
 * @example
 * ```ts
 * integerOptionIn(0, 65535)('99999', '--port');
 * // ParlInputError: --port must be a decimal integer from 0 to 65535, got "99999"
 * ```
 */
export function integerOptionIn(min: number, max?: number): OptionParser<number> {
  const expected = max === undefined ? `a decimal integer ≥ ${min}` : `a decimal integer from ${min} to ${max}`;
  return decimalWhere((n) => Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max), expected);
}

/**
 * One of a fixed set of texts, returned typed.
 *
 * @example
 * ```ts
 * choiceOption(['linear', 'log'] as const)('cubic', 'query.parallel-shape');
 * // ParlInputError: query.parallel-shape must be one of linear, log, got "cubic"
 * ```
 */
export function choiceOption<T extends string>(choices: readonly T[]): OptionParser<T> {
  return (text, field) => {
    if (!(choices as readonly string[]).includes(text)) throw new ParlInputError(field, text, `one of ${choices.join(', ')}`);
    return text as T;
  };
}

/** Any text, as given (file names, URLs, tokens). */
export const textOption: OptionParser<string> = (text) => text;

/** A text that is not empty (names, attribute keys). */
export const nonEmptyTextOption: OptionParser<string> = (text, field) => {
  if (text === '') throw new ParlInputError(field, text, 'a non-empty text');
  return text;
};

/**
 * A switch: `true` (or `1`, or nothing, as in `?strict`) or `false` (or `0`). A switch given on
 * the command line reads `'true'`.
 */
export const switchOption: OptionParser<boolean> = (text, field) => {
  if (text === 'true' || text === '1' || text === '') return true;
  if (text === 'false' || text === '0') return false;
  throw new ParlInputError(field, text, 'true or false');
};

/**
 * A λ schedule, short form (`linear:0.1:0:10000`) or JSON, checked and returned as its spec:
 * plain data, so that a config holding it can be sent to a worker thread. Errors name a path under
 * the option (`--lambda1.steps`).
 */
export const scheduleOption: OptionParser<ScheduleSpec> = (text, field) => parseSchedule(text, field).spec;

/** A comma-separated list of non-empty names (`id,total_reward`). */
export const nameListOption: OptionParser<string[]> = (text, field) => {
  const names = text.split(',').map((s) => s.trim());
  if (names.some((n) => n === '')) throw new ParlInputError(field, text, 'a comma-separated list of field names, e.g. id,total_reward');
  return names;
};
