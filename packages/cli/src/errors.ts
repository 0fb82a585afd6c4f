/**
 * The CLI's own error: a problem the user can fix (missing file, unknown preset, bad flag value),
 * shown as one line without a stack trace. It is `@parl/io`'s {@link ParlIoError} (the record
 * files and the labelling engine throw that) under the CLI's name.
 *
 * @module
 */
import { ParlIoError } from '@parl/io';

export { describeFsError } from '@parl/io';

/**
 * An error that ends the command with a one-line message and an exit code (2 by default: the
 * input or the flags are wrong).
 *
 * @example
 * ```ts
 * throw new CliError('cannot read --in data.jsonl: no such file');
 * // throws: cannot read --in data.jsonl
 * ```
 */
export class CliError extends ParlIoError {
  /**
   * @param message - one line a user can act on
   * @param exitCode - the exit code (default 2)
   */
  constructor(message: string, exitCode = 2) {
    super(message, exitCode);
    this.name = 'CliError';
  }
}
