/**
 * The model folders a `parl worker` reads for `--token-in` jobs (`parl worker --model-folder DIR`,
 * repeatable): a job names paths on the worker's disk (the folder, a chat template file), and the
 * template's text becomes the prompt sent to the job's endpoint, so a worker reads only under the
 * folders it was given — whoever can write to Redis cannot make it read, and send on, any other
 * file. Paths are compared after symbolic links are resolved; a worker given none runs no token-in job.
 *
 * @module
 */
import { statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { ParlInputError } from '@parl/core';

/** The path itself, and where it really is when it exists (its symbolic links resolved). */
async function placesOf(path: string): Promise<string[]> {
  const given = resolve(path);
  const real = await realpath(given).catch(() => undefined);
  return real === undefined || real === given ? [given] : [given, real];
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/**
 * Refuse a path outside every folder this worker reads models from.
 *
 * @param flag - the job's flag that names it (`--tokenizer`, `--chat-template`)
 * @throws {@link @parl/core!ParlInputError} naming the flag, the path and the folders this worker reads (or that it has none)
 */
export async function checkModelFolderTrust(flag: string, path: string, modelFolders: readonly string[]): Promise<void> {
  const allowed = (await Promise.all(modelFolders.map(placesOf))).flat();
  // A path that really lies elsewhere (a symbolic link out) is refused even when its name is inside.
  const [given, real] = await placesOf(path);
  const at = real ?? given;
  if (at !== undefined && allowed.some((dir) => inside(at, dir))) return;
  const expected =
    modelFolders.length === 0
      ? 'under a folder this worker reads models from, and it has none: start it with parl worker --model-folder DIR to run --token-in rollouts'
      : `under a folder this worker reads models from (parl worker --model-folder: ${modelFolders.map((d) => resolve(d)).join(', ')})`;
  throw new ParlInputError(flag, path, expected, undefined, 'PARL_ERR_INVALID_VALUE');
}

/**
 * Refuse a model folder that is not a folder on this machine when the worker starts (a typo, a
 * file, a mount not there yet), so that it is named once, not by every token-in job it would
 * refuse.
 *
 * @throws {@link @parl/core!ParlInputError} naming `--model-folder` and the path
 */
export function requireModelFolders(modelFolders: readonly string[]): void {
  for (const folder of modelFolders) {
    const kind = statSync(resolve(folder), { throwIfNoEntry: false });
    if (kind === undefined || !kind.isDirectory()) {
      throw new ParlInputError('--model-folder', folder, `a folder this machine has (${kind === undefined ? 'nothing is at that path' : 'that path is a file'})`, undefined, 'PARL_ERR_INVALID_VALUE');
    }
  }
}
