/**
 * Issue 24, items 3, 6 and 13 and the minor columnar items: a damaged or cut Arrow or Parquet
 * input ends in one named line (exit code 2), never in an empty output, a WebAssembly panic or a
 * spin; the previous output is untouched and no temp file is left.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { columnarBytes, isNamedInputError, labelFile, outputsIn, recordsTable } from './support/columnar-files.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parl-io-damage-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'out.arrows'), 'the previous output');
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function expectRefused(format: 'arrow' | 'arrows' | 'parquet', bytes: Uint8Array, message?: RegExp): Promise<void> {
  const dir = freshDir();
  const before = outputsIn(dir);
  const end = await labelFile(dir, format, bytes);
  if (end.ok) throw new Error(`labelled ${end.rows} rows of a damaged ${format} file`);
  expect(isNamedInputError(end.error), end.error.message).toBe(true);
  if (message !== undefined) expect(end.error.message).toMatch(message);
  expect(outputsIn(dir)).toEqual(before);
}

describe('damaged columnar input', () => {
  it('labels the whole files it is given (the fixtures are right)', async () => {
    for (const format of ['arrow', 'arrows', 'parquet'] as const) {
      const end = await labelFile(freshDir(), format, columnarBytes(recordsTable(), format));
      expect(end).toEqual({ ok: true, rows: 120 });
    }
  });

  it('refuses garbage and files cut anywhere, a stream cut at a message boundary included', async () => {
    await expectRefused('arrows', Buffer.from('not arrow at all\n'), /\(Arrow IPC\): message 1 at byte 0 metadata length must be at most/);
    await expectRefused('arrow', Buffer.from('not arrow at all\n'), /\(Arrow IPC\): message 1 at byte 0 metadata length/);
    const stream = columnarBytes(recordsTable(), 'arrows');
    // Without its end-of-stream marker: cut exactly after the last batch.
    await expectRefused('arrows', stream.subarray(0, stream.length - 8), /the bytes after message 5 \(byte \d+\) must be another message or the end-of-stream marker \(the stream is cut\), got "the end of the file"/);
    for (const cut of [1, 7, 100, Math.floor(stream.length / 2), stream.length - 9]) await expectRefused('arrows', stream.subarray(0, cut));
    const file = columnarBytes(recordsTable(), 'arrow');
    for (const cut of [6, 8, 100, Math.floor(file.length / 2), file.length - 1]) await expectRefused('arrow', file.subarray(0, cut));
  });

  it('refuses every 8-byte file at once (no spin)', async () => {
    for (const hex of ['0000000000000000', 'ffffffff00000000', 'ffffffffffffffff', 'ffffffff01000000', '4152524f57310000', '0100000000000000']) {
      await expectRefused('arrow', Buffer.from(hex, 'hex'));
      await expectRefused('arrows', Buffer.from(hex, 'hex'));
    }
  });

  it('names a flipped length field without allocating what it says', async () => {
    const stream = Buffer.from(columnarBytes(recordsTable(), 'arrows'));
    stream.writeUInt32LE(0x7fff0000, 4);
    const before = process.memoryUsage().arrayBuffers;
    await expectRefused('arrows', stream, /metadata length must be at most 67108864 bytes, got 2147418112/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('names a damaged footer instead of "Cannot read properties of null"', async () => {
    const file = Buffer.from(columnarBytes(recordsTable(), 'arrow'));
    file.writeInt32LE(file.length * 4, file.length - 10);
    await expectRefused('arrow', file, /the footer length must be between 1 and/);
  });

  it('names damaged Parquet data in one line (no WebAssembly panic) and leaves no temp file', async () => {
    const bytes = Buffer.from(columnarBytes(recordsTable(), 'parquet'));
    for (const at of [Math.floor(bytes.length / 4), Math.floor(bytes.length / 3), Math.floor(bytes.length / 2)]) {
      const damaged = Buffer.from(bytes);
      for (let i = at; i < at + 16; i++) damaged[i] = (damaged[i] as number) ^ 0xa5;
      const dir = freshDir();
      const before = outputsIn(dir);
      const end = await labelFile(dir, 'parquet', damaged);
      // A flip may land where Parquet cannot see it (padding, statistics): then the rows are all there.
      if (end.ok) expect(end.rows).toBe(120);
      else {
        expect(isNamedInputError(end.error), end.error.message).toBe(true);
        expect(outputsIn(dir)).toEqual(before);
      }
    }
    await expectRefused('parquet', bytes.subarray(0, bytes.length - 5), /\(Parquet\): the file must be a whole Parquet file/);
    await expectRefused('parquet', Buffer.from('PAR1 not parquet PAR1'), /\(Parquet\): the file must be a whole Parquet file/);
  });
});
