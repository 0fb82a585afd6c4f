/**
 * The computed fields' text, written without `JSON.stringify` of an object, against
 * `JSON.stringify`: every number (-0, 1e21, 5e-324, integers beyond 2^31 and 2^53, NaN and
 * ±Infinity), every key, and the tail the labelling fast path writes into its output bytes. A
 * difference here would change `parl reward`'s output by a byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelFieldsTail, writeLabelFieldsTail, labelFieldsPlan } from '../src/append-fields.js';
import { jsonScalarText, memberPrefix } from '../src/internal/json-member-text.js';
import { OutputBytes } from '../src/internal/output-bytes.js';

/** Numbers whose text JSON.stringify spells in a special way. */
const EDGE_NUMBERS = [
  0, -0, 1, -1, 0.1, 0.2 + 0.1, 1 / 3, 1e21, 1e-7, 1e-6, 9.999999999999999e20, 123e-20, 5e-324, -5e-324,
  Number.MAX_VALUE, Number.MIN_VALUE, Number.EPSILON, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, -(2 ** 53),
  2 ** 31, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 123456789012, 1e300, NaN, Infinity, -Infinity,
];

/** Doubles of every kind, the edge ones and integers of every size included. */
const anyNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.integer({ min: -1000, max: 1000 }).map((n) => n / 1000),
);

/** A value a computed field may hold. */
const anyScalar = fc.oneof(anyNumber, fc.boolean(), fc.constant(null));

describe('jsonScalarText', () => {
  it('is the text JSON.stringify gives, for every number, boolean and null', () => {
    for (const value of [...EDGE_NUMBERS, true, false, null]) expect(jsonScalarText(value)).toBe(JSON.stringify(value));
    fc.assert(
      fc.property(anyScalar, (value) => {
        expect(jsonScalarText(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the same text when a value comes back (its text remembered) and after its slot is taken over', () => {
    // A few values drawn again and again: the remembered texts are read back, and slots are shared.
    const pool = fc.array(anyNumber, { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(pool, fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (values, picks) => {
        for (const pick of picks) {
          const value = values[pick % values.length] as number;
          expect(jsonScalarText(value)).toBe(JSON.stringify(value));
        }
      }),
      { numRuns: 500 },
    );
    // Many distinct doubles, so that the cache's slots are taken over, then the first ones again.
    const many = Array.from({ length: 200_000 }, (_, i) => (i * 0.618033988749895) % 97.3);
    for (const value of many) expect(jsonScalarText(value)).toBe(String(value));
    for (const value of many.slice(0, 1000)) expect(jsonScalarText(value)).toBe(JSON.stringify(value));
  });
});

describe('memberPrefix', () => {
  it('is a comma, the key as JSON.stringify quotes it, and a colon; its bytes are that text as UTF-8', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), fc.boolean(), (key, first) => {
        const prefix = memberPrefix(key, first);
        const expected = `${first ? '' : ','}${JSON.stringify(key)}:`;
        expect(prefix.text).toBe(expected);
        expect(Buffer.from(prefix.bytes).equals(Buffer.from(expected, 'utf8'))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * What the full path appends in place of the record's `}`: JSON.stringify of the fields the record
 * lacks, after a comma when it has fields of its own, with the closing brace.
 */
function expectedTail(record: Record<string, unknown>, fields: Record<string, unknown>): string {
  const added = Object.fromEntries(Object.entries(fields).filter(([key]) => !Object.hasOwn(record, key)));
  const json = JSON.stringify(added);
  if (json === '{}') return '';
  return Object.keys(record).length > 0 ? `,${json.slice(1)}` : json.slice(1);
}

describe('the tail written into the output bytes', () => {
  const key = fc.oneof(fc.constantFrom('total_reward', 'r_perf', 'lambda1', 'mean_width', 'critical_steps'), fc.string({ maxLength: 8 }));
  const fields = fc.dictionary(key, anyScalar, { maxKeys: 16 });
  const record = fc.dictionary(key, anyScalar, { maxKeys: 4 });

  it('is JSON.stringify of the fields the record lacks, byte for byte, as bytes and as a string', () => {
    fc.assert(
      fc.property(record, fields, (own, computed) => {
        // The record as JSON.parse gives it (no -0, no NaN), and its computed fields where it has them.
        const parsed = JSON.parse(JSON.stringify(own)) as Record<string, unknown>;
        for (const name of Object.keys(parsed)) if (Object.hasOwn(computed, name)) computed[name] = parsed[name] as number | boolean | null;
        delete (parsed as { __proto__?: unknown }).__proto__;
        const text = JSON.stringify(parsed);
        const plan = labelFieldsPlan(text, parsed, computed);
        const expected = expectedTail(parsed, computed);
        if (plan === undefined) return; // an own __proto__ key: the full path takes it
        if (plan === 'unchanged') {
          expect(expected).toBe('');
          return;
        }
        const out = new OutputBytes(16);
        writeLabelFieldsTail(out, parsed, computed, plan);
        expect(Buffer.from(out.bytes()).toString('utf8')).toBe(expected);
        expect(labelFieldsTail(text, parsed, computed)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
