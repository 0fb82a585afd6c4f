/**
 * The fast path of the record commands against the full path it replaces: for every record the
 * line `appendLabelFields` writes reads back as the record `JSON.stringify(withLabelFields(…))`
 * writes — the same fields, values and key order — and is the very same text when the input line
 * is compact JSON; where it cannot be exact it declines.
 */
import { criticalStepsLabelFields, EPISODE_RECORD_FIELDS, LABEL_FIELDS, rewardLabelFields, withLabelFields } from '@parl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendLabelFields, MAX_FAST_PATH_BRACKETS } from '../src/append-fields.js';
import { validRecord } from '@parl/test-support/fuzz-records';

type Fields = Readonly<Record<string, unknown>>;
const labellers: readonly [string, (r: unknown) => Fields][] = [
  ['reward', (r) => rewardLabelFields(r, { lambda1: 'linear:0.3:0:20000' }) as unknown as Fields],
  ['reward --budget', (r) => rewardLabelFields(r, { budget: 20 }) as unknown as Fields],
  ['critical-steps', (r) => criticalStepsLabelFields(r) as unknown as Fields],
  ['critical-steps --budget', (r) => criticalStepsLabelFields(r, { budget: 15, onBudget: 'truncate' }) as unknown as Fields],
];

/** Extra field names: any short name or integer-like key, but never a spec field (`id`, `stages`, `r_perf` are short enough to come up, and with any value would make the record invalid). */
const extraName = fc.oneof(fc.string({ maxLength: 6 }), fc.nat({ max: 50 }).map(String)).filter((name) => !EPISODE_RECORD_FIELDS.includes(name) && !LABEL_FIELDS.includes(name));

/** A record with extra fields of any JSON value, integer-like keys included. */
const recordWithExtras = fc
  .tuple(validRecord, fc.dictionary(extraName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }))
  // Through JSON once: a record as JSON.parse gives it (no -0, no undefined).
  .map(([record, extra]) => JSON.parse(JSON.stringify({ ...extra, ...record })) as Record<string, unknown>);

/** The full path's line: the merged record, serialised. */
function fullLine(record: Record<string, unknown>, fields: Fields): string {
  return JSON.stringify(withLabelFields(record, fields));
}

/** JSON.parse with each object's keys in order, for comparisons that see key order. */
function ordered(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : value));
}

/** The same JSON text with whitespace around every structural character. */
function spaced(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    out += '{}[]:,'.includes(ch) ? ` ${ch}\t` : ch;
  }
  return `  ${out}  `.trim();
}

describe('appendLabelFields (the fast path) against the full path', () => {
  for (const [name, fieldsOf] of labellers) {
    it(`${name}: byte-identical on compact lines, the same record on any spacing`, () => {
      fc.assert(
        fc.property(recordWithExtras, (record) => {
          const fields = fieldsOf(record);
          const text = JSON.stringify(record);
          const fast = appendLabelFields(text, record, fields);
          const full = fullLine(record, fields);
          if (fast !== undefined) expect(fast).toBe(full);
          const loose = spaced(text);
          const fastLoose = appendLabelFields(loose, JSON.parse(loose) as Record<string, unknown>, fields);
          expect(fastLoose === undefined).toBe(fast === undefined);
          if (fastLoose !== undefined) expect(ordered(fastLoose)).toEqual(ordered(full));
        }),
        { numRuns: 400 },
      );
    });

    it(`${name}: a labelled record comes back unchanged (labelling twice is idempotent)`, () => {
      fc.assert(
        fc.property(recordWithExtras, (record) => {
          const once = fullLine(record, fieldsOf(record));
          const labelled = JSON.parse(once) as Record<string, unknown>;
          const again = fieldsOf(labelled);
          const fast = appendLabelFields(once, labelled, again);
          // Declined only when a recomputed field differs (r_perf from success, under a budget).
          if (fast !== undefined) expect(fast).toBe(once);
          expect(fast ?? fullLine(labelled, again)).toBe(fullLine(labelled, again));
        }),
        { numRuns: 200 },
      );
    });
  }

  it('declines a computed field already present with another value, keeps one with the same value', () => {
    const record = { r_perf: 0.5, total_reward: 7 };
    const fields = rewardLabelFields(record) as unknown as Fields;
    expect(appendLabelFields(JSON.stringify(record), record, fields)).toBeUndefined();
    const same = { r_perf: 0.5 };
    const kept = appendLabelFields('{"r_perf":0.50}', same, rewardLabelFields(same) as unknown as Fields) ?? '';
    expect(kept.startsWith('{"r_perf":0.50,"total_reward":')).toBe(true);
    expect(kept.match(/"r_perf"/g)).toHaveLength(1);
    expect(ordered(kept)).toEqual(ordered(fullLine(same, rewardLabelFields(same) as unknown as Fields)));
  });

  it('keeps digits the full path would round (an id beyond 2^53) and the record\'s own spelling', () => {
    const text = '{"id":12345678901234567890,"r_perf":1.0E0}';
    const record = JSON.parse(text) as Record<string, unknown>;
    const fast = appendLabelFields(text, record, rewardLabelFields(record) as unknown as Fields);
    expect(fast?.startsWith('{"id":12345678901234567890,"r_perf":1.0E0,"total_reward":')).toBe(true);
    expect(JSON.parse(fast ?? '')).toEqual(JSON.parse(fullLine(record, rewardLabelFields(record) as unknown as Fields)));
  });

  it('declines an own __proto__ key and a line with too many brackets to be sure of its depth', () => {
    const proto = JSON.parse('{"__proto__":{"x":1},"r_perf":0.5}') as Record<string, unknown>;
    expect(appendLabelFields('{"__proto__":{"x":1},"r_perf":0.5}', proto, rewardLabelFields(proto) as unknown as Fields)).toBeUndefined();
    const depth = MAX_FAST_PATH_BRACKETS;
    const deepText = `{"r_perf":0.5,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const deep = JSON.parse(deepText) as Record<string, unknown>;
    expect(appendLabelFields(deepText, deep, rewardLabelFields(deep) as unknown as Fields)).toBeUndefined();
    const shallowText = `{"r_perf":0.5,"x":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)}}`;
    const shallow = JSON.parse(shallowText) as Record<string, unknown>;
    expect(appendLabelFields(shallowText, shallow, rewardLabelFields(shallow) as unknown as Fields)).toBe(fullLine(shallow, rewardLabelFields(shallow) as unknown as Fields));
  });
});
