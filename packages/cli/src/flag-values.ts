/**
 * Parsers for flag values: each turns the text of a flag into a checked value or raises
 * commander's `InvalidArgumentError` (which prints the usage and exits with code 2).
 *
 * @module
 */
import { parseDecimal } from '@parl/core';
import { InvalidArgumentError } from 'commander';

const numberOf = parseDecimal;

function check(ok: (n: number) => boolean, expected: string): (text: string) => number {
  return (text: string): number => {
    const n = numberOf(text);
    if (!ok(n)) throw new InvalidArgumentError(`Expected ${expected}.`);
    return n;
  };
}

/** A finite number ≥ 0 (budgets, steps). */
export const nonNegativeNumber = check((n) => Number.isFinite(n) && n >= 0, 'a decimal number ≥ 0');

/** A finite number > 0 (max sub-agents, total steps). */
export const positiveNumber = check((n) => Number.isFinite(n) && n > 0, 'a decimal number > 0');

/** An integer ≥ 1 (training steps, episodes). */
export const positiveInteger = check((n) => Number.isInteger(n) && n >= 1, 'a decimal integer ≥ 1');

/** An integer ≥ 2 (table rows). */
export const atLeastTwo = check((n) => Number.isInteger(n) && n >= 2, 'a decimal integer ≥ 2');

/** An integer ≥ 0 (seeds). */
export const seedValue = check((n) => Number.isSafeInteger(n) && n >= 0, 'a decimal integer ≥ 0');

/** A comma-separated list of non-empty names (`id,total_reward`). */
export function nameList(text: string): string[] {
  const names = text.split(',').map((s) => s.trim());
  if (names.length === 0 || names.some((n) => n === '')) {
    throw new InvalidArgumentError('Expected a comma-separated list of field names, e.g. id,total_reward.');
  }
  return names;
}
