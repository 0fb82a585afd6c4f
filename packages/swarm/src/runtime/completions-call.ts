/**
 * Token in's model call: one OpenAI completions request whose prompt is token ids
 * (`POST {baseURL}/completions` with `prompt: number[]`, as vLLM and SGLang serve it), asking for
 * the completion's token ids and log-probabilities (`return_token_ids: true`, `logprobs: 1`) and
 * always setting `max_tokens` (the completions API's default is 16). Retried as chat calls are:
 * bounded attempts, exponential backoff, a per-attempt timeout, all stopped by the episode's
 * signal.
 *
 * @module
 */
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { RetryPolicy } from './model-call.js';

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

/** Why an answer's body cannot be read (not retried: the endpoint does not serve token ids). */
class UnreadableAnswer extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new EpisodeStopped());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new EpisodeStopped());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
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
  const name = `completions/${endpoint.model}`;
  const body = JSON.stringify({ model: endpoint.model, prompt: args.prompt, max_tokens: args.maxTokens, logprobs: 1, return_token_ids: true });
  for (let attempt = 1; ; attempt++) {
    if (args.signal.aborted) throw new EpisodeStopped();
    const timeout = AbortSignal.timeout(args.retry.timeoutMs);
    let status: number | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }) },
        body,
        signal: AbortSignal.any([args.signal, timeout]),
      });
      status = res.status;
      const text = await res.text();
      if (!res.ok) {
        const reason = `HTTP ${res.status} from ${url}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`;
        if (attempt >= args.retry.attempts || !(res.status >= 500 || RETRYABLE.has(res.status))) throw new SwarmProviderError(name, attempt, reason, res.status, undefined);
        await sleep(args.retry.baseDelayMs * 2 ** (attempt - 1), args.signal);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new UnreadableAnswer('the answer is not JSON');
      }
      return { ...completionOf(parsed), attempts: attempt };
    } catch (err) {
      if (err instanceof SwarmProviderError) throw err;
      if (args.signal.aborted) throw new EpisodeStopped();
      if (err instanceof UnreadableAnswer) throw new SwarmProviderError(name, attempt, `${url}: ${err.message}`, status, err);
      const reason = timeout.aborted ? `no answer within ${args.retry.timeoutMs} ms` : `cannot reach ${url}: ${err instanceof Error ? err.message : String(err)}`;
      if (attempt >= args.retry.attempts) throw new SwarmProviderError(name, attempt, reason, status, err);
      await sleep(args.retry.baseDelayMs * 2 ** (attempt - 1), args.signal);
    }
  }
}
