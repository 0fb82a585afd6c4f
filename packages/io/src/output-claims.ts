/**
 * Output files checked before a command does any work: each path a command will write is either
 * new (its folder exists), or an existing file the command recognises as its own kind (a rollout
 * file of the same run, a spans file, an evaluation, an HTML report); two outputs on one path, a
 * folder, a missing folder or a file of another kind is refused up front, naming the flag and the
 * file — never found out after the work, and never a file replaced that the command did not write.
 *
 * @module
 */
import { lstat, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ParlInputError } from '@parl/core';
import { ParlIoError, describeFsError } from './errors.js';

/** One output of a command. */
export interface OutputClaim {
  /** The flag that named it (`--out`), for messages. */
  readonly flag: string;
  /** The path as given. */
  readonly path: string;
  /** Other paths the output writes beside it (`FILE.partial`), claimed with it. */
  readonly alsoWrites?: readonly string[];
  /** What an existing file must be to be written over or appended to, in words: `a rollout file of parl swarm run`. */
  readonly kind: string;
  /**
   * Whether an existing, non-empty regular file at `path` is of {@link OutputClaim.kind}:
   * undefined when it is, else why not, in a few words (`line 1 is not JSON`).
   */
  readonly recognise: (path: string) => Promise<string | undefined>;
  /** Whether an existing device, FIFO or socket (`/dev/null`) may be written in place (default false). */
  readonly allowSpecial?: boolean;
}

type PathKind = 'none' | 'file' | 'empty' | 'directory' | 'special';

async function kindOf(path: string, flag: string): Promise<PathKind> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return 'directory';
    if (!info.isFile()) return 'special';
    return info.size === 0 ? 'empty' : 'file';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // A dangling symbolic link is not a new file: writing it would follow the link.
      const link = await lstat(path).catch(() => undefined);
      if (link !== undefined) throw new ParlIoError(`cannot write ${flag} ${path}: a symbolic link to a missing file`);
      return 'none';
    }
    throw new ParlIoError(`cannot write ${flag} ${path}: ${describeFsError(err)}`);
  }
}

/** The folder of a new file must exist and be a folder. */
async function checkFolder(path: string, flag: string): Promise<void> {
  const folder = dirname(resolve(path));
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    throw new ParlIoError(`cannot write ${flag} ${path}: ${describeFsError(err)} (the folder ${dirname(path)} must exist)`);
  }
}

/**
 * Check every output before any work: no path claimed twice (the extra paths included), each
 * new in an existing folder, empty, or a file its claim recognises; a folder, a missing folder or
 * an unrecognised file is an error naming the flag and the path.
 *
 * @throws {@link @parl/core!ParlInputError} (`PARL_ERR_CONFLICT`) for two outputs on one path, or an
 *   existing file of another kind
 * @throws {@link ParlIoError} for a folder, a missing folder or a path that cannot be read
 *
 * @example
 * ```ts
 * await claimOutputs([
 *   { flag: '--out', path: 'eval.json', kind: 'an evaluation of parl swarm eval', recognise: async () => undefined },
 *   { flag: '--report', path: 'eval.html', kind: 'an HTML report of parl', recognise: async () => undefined },
 * ]);
 * ```
 */
export async function claimOutputs(claims: readonly OutputClaim[]): Promise<void> {
  const seen = new Map<string, string>();
  for (const claim of claims) {
    for (const path of [claim.path, ...(claim.alsoWrites ?? [])]) {
      const key = resolve(path);
      const other = seen.get(key);
      const shown = path === claim.path ? claim.flag : `${claim.flag} (its ${path})`;
      if (other !== undefined) {
        throw new ParlInputError(claim.flag, claim.path, `a path no other output uses (${other} writes ${path} too)`, undefined, 'PARL_ERR_CONFLICT');
      }
      seen.set(key, shown);
    }
  }
  for (const claim of claims) {
    const kind = await kindOf(claim.path, claim.flag);
    if (kind === 'directory') throw new ParlIoError(`cannot write ${claim.flag} ${claim.path}: ${describeFsError({ code: 'EISDIR' })}`);
    if (kind === 'special') {
      if (claim.allowSpecial === true) continue;
      throw new ParlInputError(claim.flag, claim.path, `a regular file (${claim.kind}), not a device, FIFO or socket`);
    }
    if (kind === 'none') await checkFolder(claim.path, claim.flag);
    if (kind === 'file') {
      const reason = await claim.recognise(claim.path);
      if (reason !== undefined) {
        throw new ParlInputError(
          claim.flag,
          claim.path,
          `a new file or ${claim.kind}, which ${claim.path} is not (${reason}): parl never replaces a file it did not write; choose another path or move it away`,
          undefined,
          'PARL_ERR_CONFLICT',
        );
      }
    }
  }
}
