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

/** A finite number ≥ 0 (`parl schedule --from`, `--to`). */
export const nonNegativeNumber = check((n) => Number.isFinite(n) && n >= 0, 'a decimal number ≥ 0');

/** An integer ≥ 2 (`parl schedule --points`). */
export const atLeastTwo = check((n) => Number.isInteger(n) && n >= 2, 'a decimal integer ≥ 2');
