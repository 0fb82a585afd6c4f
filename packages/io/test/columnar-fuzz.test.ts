/**
 * Byte mutations of Arrow (file and stream) and Parquet inputs: whatever the damage, a run either
 * labels the file or ends in one named line (exit code 2) with the previous output untouched and
 * no temp file left — never an unexpected error, a WebAssembly panic or a hang. `pnpm test` tries
 * a few inputs per format; `pnpm fuzz` (PARL_FUZZ_RUNS) many more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { columnarBytes, isNamedInputError, labelFile, outputsIn, recordsTable } from './support/columnar-files.js';
import { byteMutation, mutate } from './support/byte-mutations.js';
import { fuzzRuns, fuzzSeed, fuzzTimeout } from './support/fuzz-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'parl-io-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORMATS = ['arrow', 'arrows', 'parquet'] as const;

describe('columnar byte mutations', () => {
  for (const format of FORMATS) {
    it(`.${format}: labelled whole, or one named line with nothing written`, { timeout: fuzzTimeout(fuzzRuns(40)) }, async () => {
      const original = columnarBytes(recordsTable(), format);
      let tried = 0;
      let labelled = 0;
      await fc.assert(
        fc.asyncProperty(byteMutation, async (m) => {
          tried++;
          if (process.env['FUZZ_TRACE'] !== undefined) process.stderr.write(`${format} ${JSON.stringify(m)} rss ${Math.round(process.memoryUsage().rss / 2 ** 20)}\n`);
          writeFileSync(join(dir, 'out.arrows'), 'the previous output');
          const before = outputsIn(dir);
          const end = await labelFile(dir, format, mutate(original, m));
          // Labelled: all of it (a mutation may land where no check can see it, in a value).
          if (end.ok) {
            labelled++;
            return void expect(end.rows).toBe(120);
          }
          expect(isNamedInputError(end.error), end.error.message).toBe(true);
          expect(outputsIn(dir)).toEqual(before);
        }),
        { numRuns: fuzzRuns(40), seed: fuzzSeed(format.length) },
      );
      process.stderr.write(`columnar fuzz .${format}: ${tried} inputs, ${labelled} labelled whole, ${tried - labelled} refused in one named line\n`);
    });
  }
});
