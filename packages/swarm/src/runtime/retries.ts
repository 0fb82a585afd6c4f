/**
 * The one retry helper of the swarm (model calls, reward reports): the AI SDK's own exponential
 * backoff (`retryWithExponentialBackoff` of `@ai-sdk/provider-utils`), a timeout per attempt, a
 * server's `Retry-After` / `retry-after-ms` honoured as the AI SDK honours it (when it asks for
 * under a minute, or for less than the backoff), and all of it stopped by an abort signal.
 *
 * @module
 */
import { retryWithExponentialBackoff } from '@ai-sdk/provider-utils';
import { CallDeadline } from '../tools/call-deadline.js';
import type { RetryPolicy } from './retry-policy.js';

export { DEFAULT_RETRY, type RetryPolicy } from './retry-policy.js';

/** An attempt that found no answer within the policy's timeout. */
export class AttemptTimedOut extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimedOut';
  }
}

/** The attempts failed: the last attempt's error, and how many were made. */
export class RetriesFailed extends Error {
  constructor(
    /** Attempts made. */
    readonly attempts: number,
    /** The last attempt's error ({@link AttemptTimedOut} for a timeout). */
    readonly lastError: unknown,
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
    this.name = 'RetriesFailed';
  }
}

/** A response's headers, as `fetch` gives them or as the AI SDK's `APICallError` keeps them. */
export type ResponseHeaders = Headers | Readonly<Record<string, string | undefined>> | undefined;

function header(headers: ResponseHeaders, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  return headers[name];
}

/** How long the server asked to wait before the next attempt (`retry-after-ms`, else `Retry-After` in seconds or as an HTTP date), ms. */
export function retryAfterMs(headers: ResponseHeaders): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && !Number.isNaN(Number.parseFloat(ms))) return Number.parseFloat(ms);
  const after = header(headers, 'retry-after');
  if (after === undefined) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : at - Date.now();
}

/** What the helper asks of a failed attempt's error. */
export interface FailureRule {
  /** Whether another attempt may mend it (a timeout always may). */
  retryable(error: unknown): boolean;
  /** The headers of the answer it came with, for `Retry-After`. */
  headersOf?(error: unknown): ResponseHeaders;
}

/**
 * Run `attempt` until it succeeds, at most `policy.attempts` times; each attempt gets a signal
 * aborted at its timeout or when `signal` aborts.
 *
 * @throws {@link RetriesFailed} after the last attempt, or at once for an error `rule` says no
 *   retry mends; `signal`'s reason when it aborted
 */
export async function withRetries<T>(attempt: (signal: AbortSignal, n: number) => PromiseLike<T>, policy: RetryPolicy, rule: FailureRule, signal?: AbortSignal): Promise<T> {
  let n = 0;
  const once = async (): Promise<T> => {
    n++;
    signal?.throwIfAborted();
    const deadline = new CallDeadline(policy.timeoutMs, signal);
    try {
      return await attempt(deadline.signal, n);
    } catch (err) {
      signal?.throwIfAborted();
      // A timed-out attempt is no abort to the backoff: it is retried.
      throw deadline.timedOut ? new AttemptTimedOut(policy.timeoutMs) : err;
    } finally {
      deadline.clear();
    }
  };
  const retrying = retryWithExponentialBackoff({
    maxRetries: Math.max(0, policy.attempts - 1),
    initialDelayInMs: policy.baseDelayMs,
    backoffFactor: 2,
    ...(signal === undefined ? {} : { abortSignal: signal }),
    shouldRetry: (error) => error instanceof AttemptTimedOut || rule.retryable(error),
    getDelayInMs: ({ error, exponentialBackoffDelay }) => {
      const asked = retryAfterMs(rule.headersOf?.(error));
      return asked !== undefined && asked >= 0 && (asked < 60_000 || asked < exponentialBackoffDelay) ? asked : exponentialBackoffDelay;
    },
    createRetryError: ({ errors }) => new RetriesFailed(errors.length, errors.at(-1)),
  });
  try {
    return await retrying(once);
  } catch (err) {
    signal?.throwIfAborted();
    throw err instanceof RetriesFailed ? err : new RetriesFailed(n, err);
  }
}
