/**
 * A `/v1/rewards` body labelled into bytes by `@parl/io`'s engine with serve's extras (on a
 * labelling thread, or on the event loop): the
 * answer is the bytes of the labelled records as `JSON.stringify` writes them, the log lines are
 * `rewardLogLine` of each record with an id, the spans point at each id's record in the answer,
 * and the packed points are the dashboard's points — for any ids and text, non-ASCII included.
 */
import { labelReward, resolveRewardConfig } from '@parl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelRecordsBody, type LabelledBody } from '@parl/io';
import { episodePoint } from '../src/dashboard/live-stats.js';
import { rewardLogLine } from '../src/episodes/log-entry.js';
import { bodyExtras } from '../src/labelling/body-extras.js';
import { packedPointCount, unpackPoint } from '../src/internal/packed-points.js';
import { createRecordsLabeller } from '../src/labelling/records-labeller.js';

/** The answer `parl reward` writes: a JSON array for a JSON body, NDJSON for NDJSON. */
function recordsText(records: readonly Readonly<Record<string, unknown>>[], format: 'json' | 'ndjson'): string {
  const json = records.map((r) => JSON.stringify(r));
  if (format === 'ndjson') return json.length === 0 ? '' : `${json.join('\n')}\n`;
  return `[${json.join(',')}]`;
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

const stage = fc.record({ main_steps: fc.integer({ min: 0, max: 5 }), sub_steps: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }) });
const record = fc.record(
  {
    id: fc.oneof(fc.string({ unit: 'binary' }), fc.integer()),
    training_step: fc.integer({ min: 0, max: 10_000 }),
    note: fc.string({ unit: 'grapheme' }),
    stages: fc.array(stage, { minLength: 1, maxLength: 3 }),
    r_perf: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: ['stages', 'r_perf'] },
);

function expectSameAsCore(out: LabelledBody, records: readonly Record<string, unknown>[], format: 'json' | 'ndjson', step: number | undefined): void {
  const config = resolveRewardConfig(step === undefined ? {} : { step });
  const labelled = records.map((r, i) => labelReward(r, config, format === 'json' ? `record ${i + 1}` : `line ${i + 1}`) as unknown as Record<string, unknown>);
  expect(text(out.answer)).toBe(recordsText(labelled, format));
  expect(out.format).toBe(format);
  expect(out.count).toBe(records.length);
  const withId = labelled.filter((r) => typeof r['id'] === 'string' || typeof r['id'] === 'number');
  expect(out.ids).toEqual(withId.map((r) => String(r['id'])));
  expect(text(out.extraBytes)).toBe(withId.map((r) => rewardLogLine(String(r['id']), JSON.stringify(r))).join(''));
  withId.forEach((r, i) => expect(text(out.answer.subarray(out.spans[2 * i], out.spans[2 * i + 1]))).toBe(JSON.stringify(r)));
  expect(packedPointCount(out.numbers)).toBe(records.length);
  labelled.forEach((r, i) => expect(unpackPoint(out.numbers, i)).toEqual(episodePoint(r)));
}

describe('labelRecordsBody', () => {
  it('gives the bytes core labelReward and JSON.stringify give, for JSON arrays and NDJSON, any ids and text', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.boolean(), fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }), (records, ndjson, step) => {
        const format = ndjson ? 'ndjson' : 'json';
        const body = ndjson ? records.map((r) => JSON.stringify(r)).join('\n') : JSON.stringify(records);
        const config = step === undefined ? {} : { step };
        const out = labelRecordsBody({ body: new TextEncoder().encode(body), contentType: ndjson ? 'application/x-ndjson' : 'application/json', config }, bodyExtras);
        if ('error' in out) throw new Error(out.error);
        expectSameAsCore(out, records, format, step);
      }),
      { numRuns: 300 },
    );
  });

  it('returns the first bad record as a one-line message instead of throwing', () => {
    const out = labelRecordsBody({ body: new TextEncoder().encode('[{"r_perf":1},{"r_perf":"high"}]'), contentType: 'application/json', config: {} }, bodyExtras);
    expect(out).toEqual({ error: expect.stringMatching(/^record 2: r_perf must be/) as unknown as string });
  });

  it('labels the same on a thread as on the event loop, and a thread moves the body without a copy', async () => {
    const threaded = await createRecordsLabeller(1, 8);
    const inline = await createRecordsLabeller(0, 8);
    try {
      const records = fc.sample(record, { numRuns: 200, seed: 7 });
      const body = new TextEncoder().encode(JSON.stringify(records));
      const expected = await inline.label({ body: body.slice(), contentType: 'application/json', config: { step: 3 } });
      const moved = body.slice();
      const got = await threaded.label({ body: moved, contentType: 'application/json', config: { step: 3 } });
      expect(moved.byteLength).toBe(0);
      if ('error' in got || 'error' in expected) throw new Error('unexpected failure');
      expect(text(got.answer)).toBe(text(expected.answer));
      expect(text(got.extraBytes)).toBe(text(expected.extraBytes));
      expect([...got.spans]).toEqual([...expected.spans]);
      expectSameAsCore(got, records, 'json', 3);
    } finally {
      await threaded.close();
      await inline.close();
    }
  });
});
