/**
 * The I/O error of `@parl/io`: a file that cannot be read or written, an input in no format we
 * read (a damaged Arrow or Parquet file is a `ParlInputError` of `@parl/core`, located at the
 * file) — shown as one line without a stack trace, with the exit
 * code a command ends with (2: the input or the paths are wrong; 1: the output could not be written).
 *
 * @module
 */

/**
 * An error that ends a command with a one-line message and an exit code (2 by default: the input
 * or the paths are wrong). `@parl/cli`'s `CliError` extends it.
 *
 * @example
 * ```ts
 * new ParlIoError('cannot read --in data.jsonl: no such file or directory').code; // "PARL_ERR_IO"
 * ```
 */
export class ParlIoError extends Error {
  /** The codes this class's errors carry (docs/errors.md): `PARL_ERR_IO`; `CliError` carries it too. */
  static readonly codes: readonly ['PARL_ERR_IO'] = ['PARL_ERR_IO'];
  /** The stable code: `PARL_ERR_IO`, whatever the exit code (match on this, never on the message). */
  readonly code = 'PARL_ERR_IO';
  /** The process exit code to end with. */
  readonly exitCode: number;

  /**
   * @param message - one line a user can act on
   * @param exitCode - the exit code (default 2)
   */
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'ParlIoError';
    this.exitCode = exitCode;
  }
}

/**
 * A short reason for a file-system error (`no such file or directory`, `permission denied`, …).
 *
 * @example
 * ```ts
 * describeFsError(Object.assign(new Error('x'), { code: 'ENOENT' })); // 'no such file or directory'
 * ```
 */
export function describeFsError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a parent path is not a directory';
    case 'ENOSPC':
      return 'no space left on device';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
