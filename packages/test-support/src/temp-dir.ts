/**
 * Temporary folders for tests: made under the system temp folder, removed when the test ends.
 *
 * @module
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A temporary folder and the function that removes it with everything in it. */
export interface TempDir {
  /** Absolute path of the folder. */
  readonly path: string;
  /** Remove the folder and its contents (never throws when it is already gone). */
  remove(): Promise<void>;
}

/**
 * Make a fresh empty folder named `parl-<prefix>-XXXXXX` under the system temp folder.
 *
 * @param prefix - a word naming the test, so a leftover folder says where it came from
 */
export async function makeTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), `parl-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * A maker of fresh temp folders (`parl-<prefix>-XXXXXX`), each removed after the test that made it.
 * Call it at the top of a test file or `describe` block.
 *
 * @param prefix - a word naming the test suite
 */
export function useTempDirs(prefix = 'test'): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), `parl-${prefix}-`));
    made.push(d);
    return d;
  };
}

/** File names in a folder, sorted (to check that no temp file is left behind). */
export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}
