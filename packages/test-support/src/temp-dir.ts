/**
 * Temporary folders for tests: made under the system temp folder, removed when the test ends.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
