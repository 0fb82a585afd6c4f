/**
 * The `/v1/rewards` log line is assembled from the answer's own JSON text; it must be the bytes
 * `JSON.stringify` gives for the entry, whatever the id and the record hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewardLogLine } from '../src/episodes/log-entry.js';

describe('rewardLogLine', () => {
  it('is JSON.stringify({ t, id, record }) plus a newline for any id and JSON record', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), (id, record) => {
        expect(rewardLogLine(id, JSON.stringify(record))).toBe(`${JSON.stringify({ t: 'reward', id, record })}\n`);
      }),
      { numRuns: 500 },
    );
  });

  it('escapes quotes, newlines and lone surrogates in the id', () => {
    const id = 'a"b\n\ud800';
    expect(JSON.parse(rewardLogLine(id, '{}'))).toEqual({ t: 'reward', id, record: {} });
  });
});
