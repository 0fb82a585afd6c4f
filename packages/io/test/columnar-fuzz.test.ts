/**
 * Byte mutations of Arrow (file and stream) and Parquet inputs: whatever the damage, a run either
 * labels the file or ends in one named line (exit code 2) with the previous output untouched and
 * no temp file left — never an unexpected error, a WebAssembly panic, a hang or an unbounded
 * heap. Besides mutations anywhere, the Arrow formats get mutations inside their metadata only
 * (messages' FlatBuffers, the footer). `pnpm test` tries a few inputs per property; `pnpm fuzz`
 * (PARL_FUZZ_RUNS) many more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { columnarBytes, isNamedInputError, labelFile, outputsIn, recordsTable } from './support/columnar-files.js';
import { metadataRanges } from './support/arrow-messages.js';
import { byteMutation, mutate, type ByteMutation } from './support/byte-mutations.js';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from './support/fuzz-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'parl-io-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Format = 'arrow' | 'arrows' | 'parquet';

/** `m` moved inside the metadata of `bytes` (its position taken modulo the metadata's bytes). */
function inMetadata(bytes: Uint8Array, m: ByteMutation): ByteMutation {
  const ranges = metadataRanges(bytes);
  let at = m.at % ranges.reduce((n, r) => n + r.end - r.start, 0);
  for (const r of ranges) {
    if (at < r.end - r.start) return { ...m, at: r.start + at };
    at -= r.end - r.start;
  }
  return m;
}

/** A property: mutations of one format's file, anywhere or inside its metadata only (what apache-arrow trusts most). */
interface FuzzProperty {
  readonly name: string;
  readonly format: Format;
  readonly place: (bytes: Uint8Array, m: ByteMutation) => ByteMutation;
  readonly seed: number;
}

const anywhere = (_: Uint8Array, m: ByteMutation): ByteMutation => m;
const PROPERTIES: readonly FuzzProperty[] = [
  { name: '.arrow', format: 'arrow', place: anywhere, seed: 5 },
  { name: '.arrows', format: 'arrows', place: anywhere, seed: 6 },
  { name: '.parquet', format: 'parquet', place: anywhere, seed: 7 },
  { name: '.arrow metadata', format: 'arrow', place: inMetadata, seed: 15 },
  { name: '.arrows metadata', format: 'arrows', place: inMetadata, seed: 16 },
];

/** What one input may hold in memory at most, the heap and array buffers together (the file is 4.5 kB). */
const MEMORY_BOUND = 1024 * 1024 * 1024;

describe('columnar byte mutations', () => {
  for (const { name, format, place, seed } of PROPERTIES) {
    it(`${name}: labelled whole, or one named line with nothing written`, { timeout: fuzzTimeout(fuzzRuns(40)) }, async () => {
      const original = columnarBytes(recordsTable(), format);
      let tried = 0;
      let labelled = 0;
      await fc.assert(
        fc.asyncProperty(byteMutation, async (drawn) => {
          tried++;
          const m = place(original, drawn);
          if (process.env['FUZZ_TRACE'] !== undefined) process.stderr.write(`${name} ${JSON.stringify(m)} rss ${Math.round(process.memoryUsage().rss / 2 ** 20)}\n`);
          writeFileSync(join(dir, 'out.arrows'), 'the previous output');
          const before = outputsIn(dir);
          const end = await labelFile(dir, format, mutate(original, m));
          const { heapUsed, arrayBuffers } = process.memoryUsage();
          expect(heapUsed + arrayBuffers).toBeLessThan(MEMORY_BOUND);
          // Labelled: all of it (a mutation may land where no check can see it, in a value).
          if (end.ok) {
            labelled++;
            return void expect(end.rows).toBe(120);
          }
          expect(isNamedInputError(end.error), end.error.message).toBe(true);
          expect(outputsIn(dir)).toEqual(before);
        }),
        { numRuns: fuzzRuns(40), seed: fuzzSeed(seed) },
      );
      process.stderr.write(`columnar fuzz ${name}: ${tried} inputs, ${labelled} labelled whole, ${tried - labelled} refused in one named line\n`);
    });
  }
});
