/**
 * The swarm's named errors.
 *
 * @module
 */

/**
 * A model provider failed after the bounded retries (HTTP 429 / 5xx, a timeout, an unreachable
 * endpoint) or with an error that no retry mends (HTTP 4xx). When the orchestrator's call fails
 * the episode ends with this error; a sub-agent's failed call ends that sub-agent `finished: false`.
 */
export class SwarmProviderError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_PROVIDER'] as const;
  /** The stable code: `PARL_ERR_PROVIDER` (match on this, never on the message). */
  readonly code = 'PARL_ERR_PROVIDER';
  /** The model (`provider/modelId`). */
  readonly model: string;
  /** Attempts made. */
  readonly attempts: number;
  /** The HTTP status, when the provider answered. */
  readonly status: number | undefined;

  /**
   * @param model - `provider/modelId`
   * @param attempts - attempts made
   * @param reason - what went wrong, one line
   * @param status - the HTTP status, when there was one
   * @param cause - the provider's error
   */
  constructor(model: string, attempts: number, reason: string, status: number | undefined, cause: unknown) {
    super(`model ${model} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`, { cause });
    this.name = 'SwarmProviderError';
    this.model = model;
    this.attempts = attempts;
    this.status = status;
  }
}

/** Thrown inside the runtime when the episode's signal stopped a call (the budget ran out); never escapes an episode. */
export class EpisodeStopped extends Error {
  constructor() {
    super('the episode was stopped');
    this.name = 'EpisodeStopped';
  }
}
