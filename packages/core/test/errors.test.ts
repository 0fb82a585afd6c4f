import { describe, expect, it } from 'vitest';
import {
  PARL_ERROR_CODES,
  ParlInputError,
  describeValue,
  labelReward,
  fieldPath,
  requireArray,
  requireCount,
  requireFinite,
  requireNonNegative,
  requireObject,
  requireOneOf,
  requirePositive,
  requirePositiveInteger,
} from '../src/index.js';
import { messageOf } from './support.js';

describe('ParlInputError', () => {
  it('reads like the spec example and keeps its parts', () => {
    const err = new ParlInputError('stages[2].sub_steps[0]', -3, 'a finite number ≥ 0', 'line 17');
    expect(err.message).toBe('line 17: stages[2].sub_steps[0] must be a finite number ≥ 0, got -3');
    expect(err.name).toBe('ParlInputError');
    expect(err).toBeInstanceOf(Error);
    expect([err.field, err.value, err.expected, err.location]).toEqual(['stages[2].sub_steps[0]', -3, 'a finite number ≥ 0', 'line 17']);
  });

  it('has no prefix without a location, and at() adds one', () => {
    const err = new ParlInputError('r_perf', Number.NaN, 'a finite number');
    expect(err.message).toBe('r_perf must be a finite number, got NaN');
    expect(err.location).toBeUndefined();
    const located = err.at('record 3');
    expect(located).toBeInstanceOf(ParlInputError);
    expect(located.message).toBe('record 3: r_perf must be a finite number, got NaN');
    expect(located.field).toBe('r_perf');
  });
});

describe('ParlInputError codes', () => {
  it('derives missing-field and invalid-value codes, keeps a given code through at()', () => {
    expect(new ParlInputError('stages', undefined, 'an array').code).toBe('PARL_ERR_MISSING_FIELD');
    expect(new ParlInputError('stages', 3, 'an array').code).toBe('PARL_ERR_INVALID_VALUE');
    const limit = new ParlInputError('record', 'x', 'small', undefined, 'PARL_ERR_LIMIT');
    expect(limit.at('line 2').code).toBe('PARL_ERR_LIMIT');
    expect(PARL_ERROR_CODES).toContain(limit.code);
  });

  it('marks a conflict and a misspelt field by code, whatever the wording', () => {
    const codeOf = (record: Record<string, unknown>): string | undefined => {
      try {
        labelReward(record, { strict: true });
      } catch (err) {
        return err instanceof ParlInputError ? err.code : 'not a ParlInputError';
      }
      return undefined;
    };
    expect(codeOf({ r_perf: 0.5, success: true })).toBe('PARL_ERR_CONFLICT');
    expect(codeOf({ r_perf: 0.5, num_subagent: 3 })).toBe('PARL_ERR_UNKNOWN_NAME');
  });
});

describe('describeValue', () => {
  it('renders every kind of value shortly', () => {
    expect(describeValue(undefined)).toBe('undefined (missing)');
    expect(describeValue(Number.NaN)).toBe('NaN');
    expect(describeValue(Number.NEGATIVE_INFINITY)).toBe('-Infinity');
    expect(describeValue(-3)).toBe('-3');
    expect(describeValue('abc')).toBe('"abc"');
    expect(describeValue(12n)).toBe('12n');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(true)).toBe('true');
    expect(describeValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(describeValue(() => 1)).toBe('() => 1');
  });

  it('cuts long strings and objects', () => {
    const long = 'x'.repeat(100);
    expect(describeValue(long)).toBe(JSON.stringify(`${'x'.repeat(57)}...`));
    const big = Array.from({ length: 100 }, (_, i) => i);
    const text = describeValue(big);
    expect(text.length).toBe(80);
    expect(text.endsWith('...')).toBe(true);
  });

  it('never throws, even on a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(describeValue(cyclic)).toBe('(object that cannot be shown)');
  });

  it('never throws on an array nested deeper than the stack (String() would overflow too)', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(describeValue(deep)).toBe('(an array that cannot be shown)');
  });
});

describe('fieldPath', () => {
  it('joins keys and indices', () => {
    expect(fieldPath('', 'stages')).toBe('stages');
    expect(fieldPath('stages', 2)).toBe('stages[2]');
    expect(fieldPath('stages[2]', 'sub_steps')).toBe('stages[2].sub_steps');
  });
});

describe('require* checks', () => {
  it('requireFinite', () => {
    expect(requireFinite(-2.5, 'x')).toBe(-2.5);
    expect(messageOf(() => requireFinite(Number.POSITIVE_INFINITY, 'x'))).toBe('x must be a finite number, got Infinity');
    expect(messageOf(() => requireFinite('1', 'x'))).toBe('x must be a finite number, got "1"');
    expect(messageOf(() => requireFinite(undefined, 'x'))).toBe('x must be a finite number, got undefined (missing)');
  });

  it('requireNonNegative', () => {
    expect(requireNonNegative(0, 'x')).toBe(0);
    expect(requireNonNegative(0.1, 'x')).toBe(0.1);
    expect(messageOf(() => requireNonNegative(-0.5, 'x'))).toBe('x must be a finite number ≥ 0, got -0.5');
    expect(messageOf(() => requireNonNegative(Number.NaN, 'x'))).toBe('x must be a finite number ≥ 0, got NaN');
  });

  it('requirePositive', () => {
    expect(requirePositive(1e-9, 'k')).toBe(1e-9);
    expect(messageOf(() => requirePositive(0, 'k'))).toBe('k must be a finite number > 0, got 0');
  });

  it('requireCount and requirePositiveInteger', () => {
    expect(requireCount(0, 'n')).toBe(0);
    expect(messageOf(() => requireCount(2.5, 'n'))).toBe('n must be an integer ≥ 0, got 2.5');
    expect(messageOf(() => requireCount(-1, 'n'))).toBe('n must be an integer ≥ 0, got -1');
    expect(requirePositiveInteger(3, 'n')).toBe(3);
    expect(messageOf(() => requirePositiveInteger(0, 'n'))).toBe('n must be an integer ≥ 1, got 0');
  });

  it('requireArray, requireObject and requireOneOf', () => {
    expect(requireArray([1], 'a')).toEqual([1]);
    expect(messageOf(() => requireArray('no', 'a'))).toBe('a must be an array, got "no"');
    expect(requireObject({ x: 1 }, 'o')).toEqual({ x: 1 });
    expect(messageOf(() => requireObject(null, 'o'))).toBe('o must be an object, got null');
    expect(messageOf(() => requireObject([], 'o'))).toBe('o must be an object, got []');
    expect(requireOneOf('log', 'shape', ['linear', 'log'])).toBe('log');
    expect(messageOf(() => requireOneOf('cubic', 'shape', ['linear', 'log']))).toBe('shape must be one of "linear", "log", got "cubic"');
  });
});
