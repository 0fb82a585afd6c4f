/**
 * The one engine, two doors: `parl reward` on JSONL ({@link labelStream}) and `POST /v1/rewards` on
 * an NDJSON body ({@link labelRecordsBody}) give the same bytes for the same lines, and the same
 * one-line error for the same first bad line (the wording of `parl reward`: `line N: record must
 * be valid JSON (…)`). Random bodies of any bytes give an answer or one line, never a throw.
 * `pnpm test` tries a few hundred inputs; `pnpm fuzz` (PARL_FUZZ_RUNS) many more.
 */
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelRecordsBody, labelStream } from '../src/index.js';
import { jsonlDecidedAtFirstLine } from '../src/read-records.js';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from './support/fuzz-runs.js';

const stage = fc.record({ main_steps: fc.integer({ min: 0, max: 5 }), sub_steps: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }) });
const good = fc.record(
  { id: fc.oneof(fc.string(), fc.integer()), note: fc.string({ unit: 'grapheme', maxLength: 8 }), stages: fc.array(stage, { minLength: 1, maxLength: 3 }), r_perf: fc.double({ min: 0, max: 1, noNaN: true }) },
  { requiredKeys: ['r_perf'] },
).map((r) => JSON.stringify(r));
/** A line: a good record (compact: `parl reward` keeps a record's own spacing), one with blanks around it, a bad record, text that is not JSON, bytes that are not UTF-8, a blank. */
const line = fc.oneof(
  { weight: 6, arbitrary: good },
  { weight: 1, arbitrary: good.map((t) => ` ${t}\t`) },
  { weight: 1, arbitrary: fc.constant('{"r_perf":"high"}') },
  { weight: 1, arbitrary: fc.string({ maxLength: 90 }) },
  { weight: 1, arbitrary: fc.constant('{"r_perf":1,"x":"\uFFFD"}') },
  { weight: 1, arbitrary: fc.constant('') },
);

async function viaStream(bytes: Buffer): Promise<{ text: string } | { error: string }> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  try {
    await labelStream('reward', { format: 'jsonl' }, { stdin: Readable.from([bytes]), stdout, stderr: new PassThrough() }, { command: 'reward', config: { step: 7 } });
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('one engine for parl reward and /v1/rewards', () => {
  it('NDJSON: the same bytes and the same first error as parl reward on the same lines', { timeout: fuzzTimeout(fuzzRuns(200)) }, async () => {
    let tried = 0;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 10 }), fc.boolean(), async (lines, notUtf8) => {
        tried++;
        let bytes = Buffer.from(lines.join('\n'), 'utf8');
        // Bytes that are not UTF-8 in one line: both name that line, nothing is replaced and read on.
        if (notUtf8 && bytes.length > 0) bytes = Buffer.concat([bytes, Buffer.from('\n{"r_perf":1,"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
        // Compared where parl reward reads the bytes as JSONL from the first line on (its own
        // test, read-records.ts): a first non-blank `[`, or a first line that only opens an
        // object (`{`), is a JSON document to it, while the NDJSON body reads a bad line there.
        if (!jsonlDecidedAtFirstLine(bytes, true)) return;
        compared++;
        const body = labelRecordsBody({ body: new Uint8Array(bytes), contentType: 'application/x-ndjson', config: { step: 7 } });
        const stream = await viaStream(bytes);
        if ('error' in body) expect(stream).toEqual({ error: body.error });
        else expect(stream).toEqual({ text: Buffer.from(body.answer).toString('utf8') });
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(24) },
    );
    process.stderr.write(`body fuzz (NDJSON against parl reward): ${tried} inputs, ${compared} compared (parl reward reads the others as JSON, not as JSONL from their first line)\n`);
  });

  it('any bytes as a body, JSON or NDJSON: an answer or one line, never a throw', { timeout: fuzzTimeout(fuzzRuns(300)) }, () => {
    let tried = 0;
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.array(line, { maxLength: 6 }).map((l) => new TextEncoder().encode(`[${l.join(',')}]`))), fc.constantFrom('application/json', 'application/x-ndjson', undefined), (bytes, type) => {
        tried++;
        const out = labelRecordsBody({ body: bytes, contentType: type, config: {} });
        if ('error' in out) expect(out.error).not.toContain('\n');
        else expect(out.format === 'ndjson' || Buffer.from(out.answer).toString('utf8').startsWith('[')).toBe(true);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(12) },
    );
    process.stderr.write(`body fuzz (any bytes): ${tried} inputs\n`);
  });
});
