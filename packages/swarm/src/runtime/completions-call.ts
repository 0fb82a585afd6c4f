/**
 * Token in's model call: one OpenAI completions request whose prompt is token ids
 * (`POST {baseURL}/completions` with `prompt: number[]`, as vLLM and SGLang serve it), asking for
 * the completion's token ids and log-probabilities (`return_token_ids: true`, `logprobs: 1`) and
 * always setting `max_tokens` (the completions API's default is 16). Retried by the swarm's one
 * retry helper, as chat calls are: bounded attempts, backoff honouring `Retry-After`, a timeout
 * per attempt, all stopped by the episode's signal.
 *
 * @module
 */
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import { AttemptTimedOut, RetriesFailed, withRetries, type RetryPolicy } from './retries.js';
import { readAtMost, textOf } from '../http/bounded-answers.js';

/**
 * The longest completions answer read, bytes (64 MiB: the token ids and log-probabilities of far
 * more tokens than any context holds); a longer one fails the call as unreadable.
 */
export const MAX_COMPLETION_ANSWER_BYTES = 64 * 1024 * 1024;

/** What one completions call returned. */
export interface TokenCompletion {
  /** The completion's token ids (`choices[0].token_ids`). */
  readonly ids: readonly number[];
  /** Their log-probabilities (`choices[0].logprobs.token_logprobs`), one per id. */
  readonly logprobs: readonly number[];
  /** `choices[0].finish_reason`: `stop` when the model ended its turn, `length` when `max_tokens` cut it. */
  readonly finishReason: string;
  /** Attempts it took. */
  readonly attempts: number;
}

/** An OpenAI-compatible completions endpoint serving the orchestrator's model. */
export interface CompletionsEndpoint {
  /** The base URL (`http://127.0.0.1:8000/v1`); requests go to `${baseUrl}/completions`. */
  readonly baseUrl: string;
  /** The model name on the endpoint. */
  readonly model: string;
  /** The API key, sent as a bearer token, when there is one. */
  readonly apiKey?: string | undefined;
}

/** An answer whose body cannot be read (not retried: the endpoint does not serve token ids). */
class UnreadableAnswer extends Error {}

/** An HTTP error answer (retried when its status says a retry may mend it). */
class ErrorAnswer extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    message: string,
  ) {
    super(message);
  }
}

function isIds(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((t) => Number.isInteger(t) && (t as number) >= 0);
}

/** Read `choices[0]`'s ids, log-probabilities and finish reason. */
function completionOf(body: unknown): Omit<TokenCompletion, 'attempts'> {
  const choices = typeof body === 'object' && body !== null ? (body as { choices?: unknown }).choices : undefined;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (typeof choice !== 'object' || choice === null) throw new UnreadableAnswer('no choices[0] in the answer');
  const c = choice as { token_ids?: unknown; logprobs?: unknown; finish_reason?: unknown };
  if (!isIds(c.token_ids)) throw new UnreadableAnswer('choices[0].token_ids missing (ask the engine for return_token_ids)');
  const lp = typeof c.logprobs === 'object' && c.logprobs !== null ? (c.logprobs as { token_logprobs?: unknown }).token_logprobs : undefined;
  if (!Array.isArray(lp) || lp.length !== c.token_ids.length || lp.some((l) => typeof l !== 'number' || !Number.isFinite(l))) {
    throw new UnreadableAnswer(`choices[0].logprobs.token_logprobs must hold one finite number per completion token (${c.token_ids.length})`);
  }
  return { ids: c.token_ids, logprobs: lp as number[], finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : 'stop' };
}

const RETRYABLE = new Set([408, 409, 425, 429]);

/** Retried: timeouts, unreachable endpoints, HTTP 408 / 409 / 425 / 429 / 5xx; never an answer without token ids. */
const COMPLETIONS_FAILURES = {
  retryable: (err: unknown): boolean => (err instanceof ErrorAnswer ? err.status >= 500 || RETRYABLE.has(err.status) : !(err instanceof UnreadableAnswer)),
  headersOf: (err: unknown): Headers | undefined => (err instanceof ErrorAnswer ? err.headers : undefined),
};

/**
 * Call the completions endpoint once (retrying provider failures).
 *
 * @throws {@link SwarmProviderError} after the last failed attempt, at once for an answer no
 *   retry mends (HTTP 4xx, no token ids or log-probabilities); {@link EpisodeStopped} when `signal` aborted
 */
export async function callCompletions(args: {
  readonly endpoint: CompletionsEndpoint;
  readonly prompt: readonly number[];
  readonly maxTokens: number;
  readonly signal: AbortSignal;
  readonly retry: RetryPolicy;
}): Promise<TokenCompletion> {
  const { endpoint } = args;
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/completions`;
  const body = JSON.stringify({ model: endpoint.model, prompt: args.prompt, max_tokens: args.maxTokens, logprobs: 1, return_token_ids: true });
  let attempts = 0;
  try {
    return await withRetries(
      async (signal, n) => {
        attempts = n;
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }) },
          body,
          signal,
        });
        const { bytes, cut } = await readAtMost(res.body, MAX_COMPLETION_ANSWER_BYTES);
        const text = textOf(bytes);
        if (!res.ok) throw new ErrorAnswer(res.status, res.headers, `HTTP ${res.status} from ${url}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
        if (cut) throw new UnreadableAnswer(`${url}: the answer is more than ${MAX_COMPLETION_ANSWER_BYTES} bytes, the most this client reads`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new UnreadableAnswer(`${url}: the answer is not JSON`);
        }
        try {
          return { ...completionOf(parsed), attempts: n };
        } catch (err) {
          throw new UnreadableAnswer(`${url}: ${(err as Error).message}`);
        }
      },
      args.retry,
      COMPLETIONS_FAILURES,
      args.signal,
    );
  } catch (err) {
    if (args.signal.aborted) throw new EpisodeStopped();
    const failed = err instanceof RetriesFailed ? err : new RetriesFailed(attempts, err);
    const last = failed.lastError;
    const reason =
      last instanceof AttemptTimedOut || last instanceof ErrorAnswer || last instanceof UnreadableAnswer
        ? last.message
        : `cannot reach ${url}: ${last instanceof Error ? last.message : String(last)}`;
    throw new SwarmProviderError(`completions/${endpoint.model}`, failed.attempts, reason, last instanceof ErrorAnswer ? last.status : undefined, last);
  }
}
