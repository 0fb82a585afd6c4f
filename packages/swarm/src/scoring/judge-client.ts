/**
 * What the `judge` scorer calls: an LLM behind one method, so that the scorers never load the
 * runtime. The swarm's jobs give one on the judge's endpoint (`--judge-base-url`,
 * `--judge-model`), with the provider calls' retries; a test can give its own.
 *
 * @module
 */

/** One reply of the judge. */
export interface JudgeReply {
  /** The reply's text. */
  readonly text: string;
  /** Prompt tokens, when reported. */
  readonly inputTokens: number | undefined;
  /** Completion tokens, when reported. */
  readonly outputTokens: number | undefined;
}

/** An LLM that grades. */
export interface JudgeClient {
  /** The model (`provider/modelId`), kept in `score.model`. */
  readonly model: string;
  /** Parse failures tolerated before r_perf 0 with `score.error` (attempts at a reply that parses, ≥ 1). */
  readonly attempts: number;
  /**
   * Ask once (the client retries provider failures itself); `signal` aborts the request.
   *
   * @throws when the provider failed after its retries, or `signal` aborted
   */
  complete(prompt: string, signal?: AbortSignal): Promise<JudgeReply>;
}
