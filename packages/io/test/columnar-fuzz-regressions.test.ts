/**
 * The inputs the long columnar fuzz (`pnpm fuzz`) found, replayed on the same files: each ended
 * in a hang or a V8 out-of-memory abort before the checks of `src/columnar/arrow-*.ts`, and now
 * in one named line (exit code 2) with the previous output untouched.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { columnarBytes, isNamedInputError, labelFile, outputsIn, recordsTable } from './support/columnar-files.js';
import { mutate, type ByteMutation } from './support/byte-mutations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function expectNamed(format: 'arrow' | 'arrows', m: ByteMutation, message: RegExp): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'parl-io-regress-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'out.arrows'), 'the previous output');
  const before = outputsIn(dir);
  const heap = process.memoryUsage();
  const end = await labelFile(dir, format, mutate(columnarBytes(recordsTable(), format), m));
  if (end.ok) throw new Error(`labelled ${end.rows} rows of a damaged ${format} file`);
  expect(isNamedInputError(end.error), end.error.message).toBe(true);
  expect(end.error.message).toMatch(message);
  expect(outputsIn(dir)).toEqual(before);
  // Nothing near what a damaged length says was allocated (the file is 4.5 kB).
  const after = process.memoryUsage();
  expect(after.arrayBuffers - heap.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
  expect(after.heapUsed - heap.heapUsed).toBeLessThan(64 * 1024 * 1024);
}

describe('columnar fuzz findings', () => {
  it('.arrow: a footer block offset set to 0xFFFFFFFF (apache-arrow read at it for ever) is named', async () => {
    await expectNamed('arrow', { kind: 'word', at: 616477312, value: 0xffffffff }, /footer record batch block 1 offset must be 1056, as the record batch message 1 found at byte 1056 has it/);
  });

  it('.arrows: a flip inside a record batch message metadata (a V8 out-of-memory abort) is named', async () => {
    await expectNamed('arrows', { kind: 'flip', at: 512311125, mask: 3, count: 7 }, /message 3 at byte 1360 metadata must be metadata apache-arrow decodes/);
  });

  it('.arrows: flips inside the schema metadata that grew the heap by hundreds of MB are named', async () => {
    await expectNamed('arrows', { kind: 'flip', at: 1297471947, mask: 100, count: 4 }, /message 1 at byte 0 metadata Message\.header\.fields\[1\] must be/);
    await expectNamed('arrows', { kind: 'flip', at: 516142490, mask: 2, count: 6 }, /message 1 at byte 0 metadata Message\.header must be/);
  });
});
