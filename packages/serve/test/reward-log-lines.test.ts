/**
 * The log lines the event loop makes from a sliced body's answer (`RewardLogLines`) are the bytes
 * of `rewardLogLine` for each record with an id, for any id (escapes, non-ASCII, lone surrogates)
 * and record text, whether its buffer is fresh or reused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewardLogLine } from '../src/episodes/log-entry.js';
import { RewardLogLines } from '../src/episodes/reward-log-lines.js';

const entry = fc.record({ id: fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string()), json: fc.json() });

describe('RewardLogLines', () => {
  it('makes the bytes of rewardLogLine for each id, reusing its buffer', () => {
    const lines = new RewardLogLines();
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), fc.string(), (entries, gap) => {
        const parts: string[] = [];
        const spans: number[] = [];
        let at = 0;
        for (const e of entries) {
          at += Buffer.byteLength(gap);
          parts.push(gap, e.json);
          spans.push(at, at + Buffer.byteLength(e.json));
          at += Buffer.byteLength(e.json);
        }
        const answer = new Uint8Array(Buffer.from(parts.join('')));
        const made = lines.make({ answer, ids: entries.map((e) => e.id), spans: Uint32Array.from(spans) });
        const expected = Buffer.from(entries.map((e) => rewardLogLine(e.id, e.json)).join(''), 'utf8');
        expect(Buffer.from(made.bytes).equals(expected)).toBe(true);
        made.release();
      }),
      { numRuns: 500 },
    );
  });
});
