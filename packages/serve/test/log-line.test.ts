/**
 * The `/v1/rewards` log line is assembled from the answer's own JSON text; it must be the bytes
 * `JSON.stringify` gives for the entry, whatever the id and the record hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { otlpLogLine, rewardLogLine } from '../src/episodes/log-entry.js';

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

describe('otlpLogLine', () => {
  it('is one line whose JSON is { t: "otlp", request } for any JSON request, however it is spaced or broken into lines', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2, '\t'), fc.boolean(), (request, indent, crlf) => {
        let text = JSON.stringify({ resourceSpans: [], request }, null, indent);
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const line = otlpLogLine(new TextEncoder().encode(text), false).toString('utf8');
        expect(line.indexOf('\n')).toBe(line.length - 1);
        expect(JSON.parse(line)).toEqual({ t: 'otlp', request: JSON.parse(text) });
      }),
      { numRuns: 300 },
    );
  });

  it('holds a protobuf request as its bytes in base64', () => {
    const bytes = new Uint8Array([0, 10, 13, 255, 34, 92]);
    const line = otlpLogLine(bytes, true).toString('utf8');
    expect(line.endsWith('}\n') && line.indexOf('\n') === line.length - 1).toBe(true);
    expect(Buffer.from((JSON.parse(line) as { protobuf: string }).protobuf, 'base64')).toEqual(Buffer.from(bytes));
  });
});
