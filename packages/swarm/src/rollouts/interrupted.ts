/**
 * The error of rollouts stopped on request (Ctrl-C): what finished is in the partial file.
 *
 * @module
 */

/** Rollouts stopped on request before every episode ran; what finished is in `<out>.partial` for the next run. */
export class RolloutsInterruptedError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_INTERRUPTED'] as const;
  /** The stable code: `PARL_ERR_INTERRUPTED` (match on this, never on the message). */
  readonly code = 'PARL_ERR_INTERRUPTED';
  constructor() {
    super('the rollouts were interrupted');
    this.name = 'RolloutsInterruptedError';
  }
}
