/**
 * The error of rollouts stopped on request (Ctrl-C): what finished is in the partial file.
 *
 * @module
 */

/** Rollouts stopped on request before every episode ran; what finished is in `<out>.partial` for the next run. */
export class RolloutsInterruptedError extends Error {
  constructor() {
    super('the rollouts were interrupted');
    this.name = 'RolloutsInterruptedError';
  }
}
