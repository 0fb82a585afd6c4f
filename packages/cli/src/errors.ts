/**
 * The CLI's own error: a problem the user can fix (missing file, unknown preset, bad flag value),
 * shown as one line without a stack trace.
 *
 * @module
 */

/**
 * An error that ends the command with a one-line message and an exit code (2 by default: the
 * input or the flags are wrong).
 *
 * @example
 * ```ts
 * throw new CliError('cannot read --in data.jsonl: no such file');
 * ```
 */
export class CliError extends Error {
  /** The process exit code to end with. */
  readonly exitCode: number;

  /**
   * @param message - one line a user can act on
   * @param exitCode - the exit code (default 2)
   */
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A short reason for a file-system error (`no such file`, `permission denied`, …). */
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
