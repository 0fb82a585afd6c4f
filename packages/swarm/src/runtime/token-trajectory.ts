/**
 * The orchestrator's token trajectory (spec §10.4), assembled from what the endpoint returned for
 * each of its calls — the prompt's token ids, the completion's token ids and their
 * log-probabilities (vLLM's `return_token_ids` and OpenAI's `logprobs`) — and never re-tokenised:
 *
 * - `prompt_ids`: the first call's prompt;
 * - `response_ids`: every later token in order — each call's completion, then the tokens the next
 *   call's prompt adds after it (tool results, system text);
 * - `response_mask`: 1 for completion tokens (the policy's), 0 for added ones;
 * - `response_logprobs`: the completion tokens' log-probabilities, 0 for added ones.
 *
 * Each call's prompt must begin with the previous call's prompt and completion; the first call
 * whose prompt does not (the server's chat template re-rendered an earlier turn differently, say)
 * is `retokenized_at`, and the trajectory stops before it — never a guess at the tokens.
 *
 * @module
 */

/** What the endpoint returned for one orchestrator call. */
export interface CallTokens {
  /** The prompt's token ids (vLLM: `prompt_token_ids` on the response). */
  readonly promptIds: unknown;
  /** The completion's token ids (vLLM: `choices[0].token_ids`). */
  readonly completionIds: unknown;
  /** The completion's log-probabilities (OpenAI: `choices[0].logprobs`, `{content: [{logprob}, …]}`). */
  readonly logprobs: unknown;
}

/** The token trajectory of spec §10.4. */
export interface TokenTrajectory {
  readonly prompt_ids: readonly number[];
  readonly response_ids: readonly number[];
  readonly response_mask: readonly (0 | 1)[];
  readonly response_logprobs: readonly number[];
  /** The index of the first call whose prompt did not extend the previous prompt and completion (absent when all did). */
  readonly retokenized_at?: number;
}

/** An endpoint reply a trajectory cannot be built from: the call, and what was missing. */
export class TokenTrajectoryError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_TOKEN_TRAJECTORY'] as const;
  /** The stable code: `PARL_ERR_TOKEN_TRAJECTORY` (match on this, never on the message). */
  readonly code = 'PARL_ERR_TOKEN_TRAJECTORY';
  /**
   * @param call - the orchestrator call's index (0-based)
   * @param reason - what the endpoint's answer lacked
   */
  constructor(
    readonly call: number,
    reason: string,
  ) {
    super(`token trajectory: orchestrator call ${call}: ${reason} (the endpoint must return token ids and log-probabilities: vLLM and SGLang answer return_token_ids: true and logprobs: true)`);
    this.name = 'TokenTrajectoryError';
  }
}

function ids(value: unknown, call: number, what: string): number[] {
  if (!Array.isArray(value) || value.some((t) => !Number.isInteger(t) || (t as number) < 0)) {
    throw new TokenTrajectoryError(call, `${what} ${value === undefined ? 'missing' : 'not a list of token ids'}`);
  }
  return value as number[];
}

function logprobsOf(value: unknown, call: number, count: number): number[] {
  const content = typeof value === 'object' && value !== null ? (value as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) throw new TokenTrajectoryError(call, 'logprobs.content missing');
  const out = content.map((entry: unknown) => (typeof entry === 'object' && entry !== null ? (entry as { logprob?: unknown }).logprob : undefined));
  if (out.length !== count || out.some((l) => typeof l !== 'number' || !Number.isFinite(l))) {
    throw new TokenTrajectoryError(call, `${out.length} log-probabilities for ${count} completion tokens`);
  }
  return out as number[];
}

/** Whether `ids` begins with `prefix`. */
function extends_(ids: readonly number[], prefix: readonly number[]): boolean {
  if (ids.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}

/**
 * Assemble the trajectory of an orchestrator's calls, in call order.
 *
 * @throws {@link TokenTrajectoryError} for a call (before any `retokenized_at`) whose answer lacks token ids or log-probabilities
 *
 * @example
 * ```ts
 * const t = assembleTrajectory([
 *   { promptIds: [1, 2], completionIds: [3], logprobs: { content: [{ logprob: -0.5 }] } },
 *   { promptIds: [1, 2, 3, 4], completionIds: [5], logprobs: { content: [{ logprob: -0.25 }] } },
 * ]);
 * // t.response_ids [3, 4, 5], t.response_mask [1, 0, 1], t.response_logprobs [-0.5, 0, -0.25]
 * ```
 */
export function assembleTrajectory(calls: readonly CallTokens[]): TokenTrajectory {
  const first = calls[0];
  if (first === undefined) return { prompt_ids: [], response_ids: [], response_mask: [], response_logprobs: [] };
  const promptIds = ids(first.promptIds, 0, 'prompt_token_ids');
  const response: number[] = [];
  const mask: (0 | 1)[] = [];
  const logprobs: number[] = [];
  let conversation = promptIds;
  for (const [k, call] of calls.entries()) {
    const prompt = ids(call.promptIds, k, 'prompt_token_ids');
    if (!extends_(prompt, conversation)) return { prompt_ids: promptIds, response_ids: response, response_mask: mask, response_logprobs: logprobs, retokenized_at: k };
    const completion = ids(call.completionIds, k, 'completion token_ids');
    const lp = logprobsOf(call.logprobs, k, completion.length);
    for (const t of prompt.slice(conversation.length)) {
      response.push(t);
      mask.push(0);
      logprobs.push(0);
    }
    for (const [i, t] of completion.entries()) {
      response.push(t);
      mask.push(1);
      logprobs.push(lp[i] as number);
    }
    conversation = [...prompt, ...completion];
  }
  return { prompt_ids: promptIds, response_ids: response, response_mask: mask, response_logprobs: logprobs };
}
