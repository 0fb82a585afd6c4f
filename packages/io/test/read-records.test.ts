import { Readable } from 'node:stream';
import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { isUnreadable, readRecords, type RecordItem } from '../src/read-records.js';

async function readAll(text: string | Buffer[]): Promise<RecordItem[]> {
  const items: RecordItem[] = [];
  const chunks = typeof text === 'string' ? [Buffer.from(text)] : text;
  for await (const item of readRecords(Readable.from(chunks))) items.push(item);
  return items;
}

describe('readRecords', () => {
  it('detects JSONL and numbers lines from 1, skipping blank lines', async () => {
    const items = await readAll('\n{"a":1}\n\n{"a":2}\r\n');
    expect(items).toEqual([
      { value: { a: 1 }, location: 'line 2', format: 'jsonl' },
      { value: { a: 2 }, location: 'line 4', format: 'jsonl' },
    ]);
  });

  it('reassembles lines split across chunks, including multi-byte characters', async () => {
    const whole = Buffer.from('{"name":"λ₁ → 0"}\n{"name":"é"}\n');
    const items = await readAll([whole.subarray(0, 11), whole.subarray(11, 25), whole.subarray(25)]);
    expect(items.map((i) => (isUnreadable(i) ? null : i.value))).toEqual([{ name: 'λ₁ → 0' }, { name: 'é' }]);
  });

  it('detects a JSON array, even spread over lines, and numbers records from 1', async () => {
    const items = await readAll('[\n  {"a": 1},\n  {"a": 2}\n]\n');
    expect(items).toEqual([
      { value: { a: 1 }, location: 'record 1', format: 'json' },
      { value: { a: 2 }, location: 'record 2', format: 'json' },
    ]);
  });

  it('detects one pretty-printed JSON object as a single record', async () => {
    expect(await readAll('{\n  "a": 1\n}\n')).toEqual([{ value: { a: 1 }, location: 'record 1', format: 'json' }]);
  });

  it('strips a byte-order mark', async () => {
    expect(await readAll('\uFEFF{"a":1}\n')).toEqual([{ value: { a: 1 }, location: 'line 1', format: 'jsonl' }]);
  });

  it('yields an unreadable JSONL line as a located error and goes on', async () => {
    const items = await readAll('{"a":1}\n{"a":\n{"a":3}\n');
    expect(items).toHaveLength(3);
    const bad = items[1] as RecordItem;
    expect(isUnreadable(bad)).toBe(true);
    if (isUnreadable(bad)) {
      expect(bad.error).toBeInstanceOf(ParlInputError);
      expect(bad.error.message).toMatch(/^line 2: record must be valid JSON \(.+\), got "\{\\"a\\":"$/);
    }
  });

  it('throws a clear error when a JSON document does not parse or is a scalar', async () => {
    await expect(readAll('[{"a":1},\n')).rejects.toThrow(/^record 2: input must be a JSON array of records or JSONL \(one record per line\); it stops parsing/);
    await expect(readAll('"just text"\n')).resolves.toEqual([{ value: 'just text', location: 'line 1', format: 'jsonl' }]);
  });

  it('yields nothing for empty input', async () => {
    expect(await readAll('')).toEqual([]);
    expect(await readAll('  \n\n')).toEqual([]);
  });
});
