import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimOutputs, ParlIoError, type OutputClaim } from '../src/index.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('io-claims');
});
afterEach(async () => {
  await dir.remove();
});

/** A claim whose kind is a file starting with `ours`. */
function claim(flag: string, path: string, extra: Partial<OutputClaim> = {}): OutputClaim {
  return { flag, path, kind: 'a file of ours', recognise: async (p) => ((await readFile(p, 'utf8')).startsWith('ours') ? undefined : 'line 1 is not ours'), ...extra };
}

describe('claimOutputs: every output checked before any work', () => {
  it('accepts a new file in an existing folder, an empty file and a file of its own kind', async () => {
    await writeFile(join(dir.path, 'empty'), '');
    await writeFile(join(dir.path, 'mine'), 'ours\n');
    await expect(claimOutputs([claim('--out', join(dir.path, 'new')), claim('--a', join(dir.path, 'empty')), claim('--b', join(dir.path, 'mine'))])).resolves.toBeUndefined();
  });

  it('refuses a file of another kind, naming the flag, the file and why; the file is untouched', async () => {
    const path = join(dir.path, 'notes.txt');
    await writeFile(path, 'theirs\n');
    const err = await claimOutputs([claim('--out', path)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as ParlInputError).code).toBe('PARL_ERR_CONFLICT');
    expect((err as Error).message).toMatch(/^--out must be a new file or a file of ours, which .*notes\.txt is not \(line 1 is not ours\)/);
    expect(await readFile(path, 'utf8')).toBe('theirs\n');
  });

  it('refuses one path for two outputs, the paths written beside them included', async () => {
    const path = join(dir.path, 'x');
    await expect(claimOutputs([claim('--out', path), claim('--spans', path)])).rejects.toThrow(/^--spans must be a path no other output uses \(--out writes .*x too\)/);
    await expect(claimOutputs([claim('--out', path, { alsoWrites: [`${path}.partial`] }), claim('--spans', `${path}.partial`)])).rejects.toThrow(/^--spans must be a path no other output uses \(--out \(its .*x\.partial\) writes/);
  });

  it('a folder, or a file in a missing folder: one line naming the flag', async () => {
    await mkdir(join(dir.path, 'folder'));
    const folder = await claimOutputs([claim('--out', join(dir.path, 'folder'))]).catch((e: unknown) => e);
    expect(folder).toBeInstanceOf(ParlIoError);
    expect((folder as Error).message).toMatch(/^cannot write --out .*folder: is a directory$/);
    await expect(claimOutputs([claim('--report', join(dir.path, 'missing', 'r.html'))])).rejects.toThrow(/^cannot write --report .*missing\/r\.html: no such file or directory \(the folder .*missing must exist\)$/);
  });

  it('a device is written in place only where the claim allows it', async () => {
    await expect(claimOutputs([claim('--out', '/dev/null', { allowSpecial: true })])).resolves.toBeUndefined();
    await expect(claimOutputs([claim('--out', '/dev/null')])).rejects.toThrow(/^--out must be a regular file/);
  });
});
