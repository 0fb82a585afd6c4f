/**
 * The retry policy of model calls and reward reports, and its default (a tiny module: the option
 * tables read the default from here without loading the AI SDK).
 *
 * @module
 */

/** Retry policy of model calls and reward reports. */
export interface RetryPolicy {
  /** Attempts per call (≥ 1). */
  readonly attempts: number;
  /** Delay before the first retry, ms; doubles each retry (unless the server says how long to wait). */
  readonly baseDelayMs: number;
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
}

/** The default retry policy of model calls: 3 attempts, 500 ms then 1 s backoff, 120 s per attempt. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500, timeoutMs: 120_000 };
