/**
 * The error of a sweep that cannot go on: a folder that is not the sweep's, a Redis that cannot
 * be reached, a grid file that cannot be read. `usage` tells a caller whether the user's input
 * is at fault (the CLI exits 2) or the surroundings are (exit 1).
 *
 * @module
 */

/**
 * A sweep stopped for a reason a user can act on, in one line.
 *
 * @example
 * ```ts
 * throw new SweepError('--out notes/ holds sweep.json, which parl sweep did not write', true);
 * ```
 */
export class SweepError extends Error {
  /** True when the user's input (flags, folders, grid file) is at fault. */
  readonly usage: boolean;

  /**
   * @param message - one line a user can act on
   * @param usage - the input is at fault (true) or the surroundings are (false)
   */
  constructor(message: string, usage: boolean) {
    super(message);
    this.name = 'SweepError';
    this.usage = usage;
  }
}
