/**
 * A JSON array body is read an element at a time (never parsed whole) and a large body is labelled
 * slice by slice, yet the answer is what reading the document whole gave, byte for byte, and so is
 * the error: a document that is not JSON is refused before any record's own error (as when it was
 * parsed before labelling), and a pretty-printed array with a broken element is read as NDJSON and
 * refused at its first line. The oracle below is the reading before this change, written out:
 * `JSON.parse` of the whole body, NDJSON when that fails on several lines, core `labelReward`.
 */
import { labelReward, ParlInputError } from '@parl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelRecordsBody, labelRecordsBodyInSlices, type LabelBodyFailure, type LabelledSlices } from '../src/index.js';
import { jsonArrayElements, scansAsJsonArray } from '../src/internal/json-array-elements.js';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from './support/fuzz-runs.js';

type Answer = { readonly text: string } | { readonly error: string };

/** Whether `text` has more than one line that is not blank. */
function severalLines(text: string): boolean {
  return text.split('\n').filter((l) => l.trim() !== '').length > 1;
}

/** The reading before element-wise reading: the whole document parsed, then each record labelled. */
function oracle(text: string): Answer {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    // Several lines that are not one document are NDJSON (labelled line by line, as before).
    if (severalLines(text)) return answerOf(labelRecordsBody({ body: Buffer.from(text), contentType: 'application/x-ndjson', config: {} }));
    const shown = text.trim().length > 80 ? `${text.trim().slice(0, 80)}…` : text.trim();
    return { error: new ParlInputError('body', shown, `a JSON array of records, one record, or NDJSON (${(err as Error).message.replace(/[\r\n]+/g, ' ')})`).message };
  }
  const records = Array.isArray(doc) ? doc : [doc];
  const out: string[] = [];
  for (const [i, r] of records.entries()) {
    try {
      out.push(JSON.stringify(labelReward(r, {}, `record ${i + 1}`)));
    } catch (err) {
      if (err instanceof ParlInputError) return { error: err.message };
      throw err;
    }
  }
  return { text: `[${out.join(',')}]` };
}

function answerOf(out: { answer: Uint8Array } | LabelBodyFailure): Answer {
  return 'error' in out ? { error: out.error } : { text: Buffer.from(out.answer).toString('utf8') };
}

async function sliced(text: string, sliceBytes: number): Promise<Answer> {
  const out: LabelledSlices | LabelBodyFailure = await labelRecordsBodyInSlices({ body: Buffer.from(text), contentType: 'application/json', config: {} }, undefined, sliceBytes);
  if ('error' in out) return { error: out.error };
  const pieces: string[] = [];
  for await (const slice of out.slices()) pieces.push(Buffer.from(slice.answer).toString('utf8'));
  if (out.whole) return { text: pieces.join('') };
  return { text: out.format === 'json' ? `[${pieces.filter((p) => p !== '').join(',')}]` : pieces.join('') };
}

const record = fc.oneof(
  { weight: 6, arbitrary: fc.record({ id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), note: fc.string({ maxLength: 8 }), stages: fc.array(fc.record({ main_steps: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 2 }), r_perf: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: ['r_perf'] }) },
  { weight: 1, arbitrary: fc.constant({ r_perf: 'high' }) },
  { weight: 1, arbitrary: fc.constant({ note: 'a "quoted", [bracketed] {braced} \\ text', r_perf: 1 }) },
);
/** A body: an array of records, compact or pretty-printed, maybe damaged by a character put in or taken out. */
const body = fc
  .tuple(fc.array(record, { maxLength: 12 }), fc.constantFrom(0, 2), fc.option(fc.tuple(fc.nat(), fc.constantFrom('', ',', ']', '[', '"', '}', 'x', ' ', '\n'))))
  .map(([records, indent, damage]) => {
    const text = JSON.stringify(records, null, indent);
    if (damage === null) return text;
    const [at, put] = damage;
    const i = at % (text.length + 1);
    return put === '' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + put + text.slice(i);
  });

describe('JSON array bodies read an element at a time', () => {
  it('finds the elements JSON.parse finds, or gives up on what is not one array', () => {
    fc.assert(
      fc.property(body, (text) => {
        const bytes = Buffer.from(text);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (!scansAsJsonArray(bytes)) return;
        const elements = [...jsonArrayElements(bytes)].map(([s, e]) => bytes.toString('utf8', s, e));
        const each = elements.map((e) => {
          try {
            return { value: JSON.parse(e) as unknown };
          } catch {
            return undefined;
          }
        });
        // The scan reads a well-formed array's elements exactly; on a damaged one, some element fails to parse.
        if (parsed !== undefined) expect(each.map((e) => e?.value)).toEqual(parsed);
        else expect(each.some((e) => e === undefined)).toBe(true);
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(301) },
    );
  });

  it('labels as reading the document whole did: the same bytes, the same error, whole or in slices', { timeout: fuzzTimeout(fuzzRuns(300)) }, async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(1, 40, 200, 1 << 20), async (text, sliceBytes) => {
        const expected = oracle(text);
        expect(answerOf(labelRecordsBody({ body: Buffer.from(text), contentType: 'application/json', config: {} }))).toEqual(expected);
        expect(await sliced(text, sliceBytes)).toEqual(expected);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(302) },
    );
  });

  it('withoutExtraBytes leaves out the extra bytes of a sliced body only: a body labelled in one go gets them', async () => {
    const extras = { width: 0, numbers: () => undefined, bytes: (answer: { readonly ids: readonly string[] }) => Buffer.from(answer.ids.join(',')) };
    const text = `[${Array.from({ length: 40 }, (_, i) => `{"id":"r${i}","r_perf":1}`).join(',')}]`;
    const extraBytesOf = async (sliceBytes: number): Promise<string[]> => {
      const out = (await labelRecordsBodyInSlices({ body: Buffer.from(text), contentType: 'application/json', config: {}, withoutExtraBytes: true }, extras, sliceBytes)) as LabelledSlices;
      const bytes: string[] = [];
      for await (const slice of out.slices()) bytes.push(Buffer.from(slice.extraBytes).toString());
      return bytes;
    };
    // Labelled in one go: the extras' bytes, whatever withoutExtraBytes says.
    expect(await extraBytesOf(1 << 20)).toEqual([Array.from({ length: 40 }, (_, i) => `r${i}`).join(',')]);
    // In slices: none for any slice (the caller makes them).
    const sliced = await extraBytesOf(100);
    expect(sliced.length).toBeGreaterThan(1);
    expect(sliced.every((b) => b === '')).toBe(true);
  });

  it('refuses a document with an element that is not JSON before the error of a record ahead of it', () => {
    const text = `[{"r_perf":"high"},{"r_perf":1},{"r_perf":tru}]`;
    const out = labelRecordsBody({ body: Buffer.from(text), contentType: 'application/json', config: {} });
    expect(out).toEqual({ error: (oracle(text) as { error: string }).error });
    expect((out as LabelBodyFailure).error).toMatch(/^body must be a JSON array of records, one record, or NDJSON/);
  });
});
