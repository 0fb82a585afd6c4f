/**
 * Writing one file atomically: into a hidden temporary file beside it, renamed into place, so a
 * reader sees the old file or the new one, never half of one; on failure the temporary file is
 * removed.
 *
 * @module
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TempPathRegistry } from './run-folder.js';

/**
 * Write `content` to `path` atomically.
 *
 * @example
 * ```ts
 * await writeFileAtomically('sweeps/lambda/results.csv', csv);
 * ```
 */
export async function writeFileAtomically(path: string, content: string, tempPaths?: TempPathRegistry): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  tempPaths?.add(temp);
  try {
    await writeFile(temp, content, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  } finally {
    tempPaths?.delete(temp);
  }
}
