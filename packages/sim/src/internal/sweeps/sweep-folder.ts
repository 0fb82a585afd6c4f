/**
 * The sweep folder's marker: `parl sweep` writes `.parl-sweep` into every folder it creates, and
 * writes into a folder only when it is new, empty, or holds that marker. A folder holding a file
 * named `sweep.json` (the grid file's usual name) but no marker is the user's, and is refused by
 * name: nothing in it is ever overwritten.
 *
 * @module
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SweepError } from '../../sweeps/sweep-error.js';
import { describeFsError } from '@parl/io';

/** The marker file a sweep folder holds. */
export const SWEEP_MARKER_FILE = '.parl-sweep';

/** The marker's content: what wrote the folder, for a person who opens it. */
const MARKER_TEXT = `${JSON.stringify({ written_by: 'parl sweep', note: 'this folder is a sweep folder: parl sweep resumes and rewrites it' })}\n`;

/** True when `sweep.json` in `dir` is one a sweep wrote before markers existed: its spec, parameters, points and runs. */
async function isUnmarkedSweepJson(dir: string): Promise<boolean> {
  try {
    const json = JSON.parse(await readFile(join(dir, 'sweep.json'), 'utf8')) as Record<string, unknown> | null;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
    const keys = Object.keys(json).sort().join(',');
    return keys === 'parameters,points,runs,spec' && Array.isArray(json['runs']) && Array.isArray(json['points']);
  } catch {
    return false;
  }
}

function listed(entries: readonly string[]): string {
  return `${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}`;
}

/**
 * Claim `dir` for a sweep: create it (with its marker) when it does not exist or is empty; accept
 * it when it holds the marker, or a `sweep.json` an earlier `parl sweep` wrote (the marker is
 * added); refuse anything else without touching it.
 *
 * @param dir - the sweep folder
 * @param flag - how the caller names the folder in messages (`--out`)
 * @throws {@link SweepError} (usage) for a folder that is not a sweep's, naming what is in it
 *
 * @example
 * ```ts
 * await claimSweepFolder('sweeps/lambda', '--out');
 * ```
 */
export async function claimSweepFolder(dir: string, flag: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOTDIR') throw new SweepError(`${flag} ${dir} is a file, not a folder: choose a new folder or an earlier sweep's`, true);
    if (code !== 'ENOENT') throw new SweepError(`cannot use ${flag} ${dir}: ${describeFsError(err)}`, true);
    entries = [];
  }
  if (entries.includes(SWEEP_MARKER_FILE)) return;
  if (entries.length > 0) {
    if (!entries.includes('sweep.json')) throw new SweepError(`${flag} ${dir} holds ${listed(entries)} but is not a sweep folder: choose a new folder or an earlier sweep's`, true);
    if (!(await isUnmarkedSweepJson(dir))) {
      throw new SweepError(
        `${flag} ${dir} holds sweep.json, which parl sweep did not write (is it your grid file?): nothing was changed; choose a new folder for the sweep`,
        true,
      );
    }
  }
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, SWEEP_MARKER_FILE), MARKER_TEXT, { encoding: 'utf8', flag: 'wx' });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'EEXIST') return;
    throw new SweepError(`cannot write ${flag} ${dir}: ${describeFsError(err)}`, false);
  }
}
