/**
 * The token fields of spec §10.4 as token in builds them: exact by construction, so they never
 * carry `retokenized_at`.
 *
 * @module
 */

/** `prompt_ids`, `response_ids`, `response_mask`, `response_logprobs`, all of one length but the prompt. */
export interface TokenFields {
  /** The first call's prompt. */
  readonly prompt_ids: readonly number[];
  /** Every later token: each completion's, then the bridge that follows it. */
  readonly response_ids: readonly number[];
  /** 1 for a completion's token (the policy's), 0 for a bridge's. */
  readonly response_mask: readonly (0 | 1)[];
  /** A completion token's log-probability as the endpoint returned it, 0 for a bridge's. */
  readonly response_logprobs: readonly number[];
}
