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
 * new SweepError('--out notes/ holds sweep.json, which parl sweep did not write', true).code; // "PARL_ERR_SWEEP_INPUT"
 * throw new SweepError('redis://127.0.0.1:6379 does not answer', false);
 * // throws: does not answer
 * ```
 */
export class SweepError extends Error {
  /**
   * The codes this class's errors carry (docs/errors.md): `PARL_ERR_SWEEP_INPUT` when the user's
   * input is at fault, `PARL_ERR_SWEEP_ENVIRONMENT` when the surroundings are.
   */
  static readonly codes = ['PARL_ERR_SWEEP_INPUT', 'PARL_ERR_SWEEP_ENVIRONMENT'] as const;
  /** True when the user's input (flags, folders, grid file) is at fault. */
  readonly usage: boolean;
  /** The stable code: `PARL_ERR_SWEEP_INPUT` when {@link SweepError.usage}, else `PARL_ERR_SWEEP_ENVIRONMENT`. */
  readonly code: (typeof SweepError.codes)[number];

  /**
   * @param message - one line a user can act on
   * @param usage - the input is at fault (true) or the surroundings are (false)
   */
  constructor(message: string, usage: boolean) {
    super(message);
    this.name = 'SweepError';
    this.usage = usage;
    this.code = usage ? 'PARL_ERR_SWEEP_INPUT' : 'PARL_ERR_SWEEP_ENVIRONMENT';
  }
}
