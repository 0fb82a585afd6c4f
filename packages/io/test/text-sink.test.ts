import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParlIoError } from '../src/errors.js';
import { atomicFileSink, tempPathFor, writeFileAtomic } from '../src/text-sink.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('io');

describe('atomic file output', () => {
  it('writes to a temp file in the same folder and renames it on finish', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.txt');
    const sink = await atomicFileSink(path);
    await sink.write('x'.repeat(100_000));
    expect(existsSync(path)).toBe(false);
    const during = filesIn(dir);
    expect(during).toHaveLength(1);
    expect(during[0]).toMatch(/^\.out\.txt\.\d+\.[0-9a-f]{8}\.tmp$/);
    await sink.write('end');
    await sink.finish();
    expect(readFileSync(path, 'utf8')).toBe(`${'x'.repeat(100_000)}end`);
    expect(filesIn(dir)).toEqual(['out.txt']);
  });

  it('leaves nothing behind on abort and keeps an existing file untouched', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old');
    const sink = await atomicFileSink(path);
    await sink.write('y'.repeat(200_000));
    await sink.abort();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(filesIn(dir)).toEqual(['out.txt']);
  });

  it('names the flag and the reason when the folder does not exist', async () => {
    const path = join(tempDir(), 'missing', 'out.txt');
    await expect(writeFileAtomic(path, 'x', '--html')).rejects.toThrow(new ParlIoError(`cannot write --html ${path}: no such file or directory`));
  });

  it('puts the temp file next to the final file', () => {
    expect(tempPathFor('/a/b/report.html')).toMatch(/^\/a\/b\/\.report\.html\.\d+\.[0-9a-f]{8}\.tmp$/);
  });
});
