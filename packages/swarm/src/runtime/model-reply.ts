/**
 * What one model call returned, whichever caller made it (chat or token in).
 *
 * @module
 */
import type { ToolCall } from '../tools/tool-call.js';

/** What one model call returned. */
export interface ModelReply {
  /** The text of the reply. */
  readonly text: string;
  /** The model's reasoning, when it returned any apart from its text. */
  readonly reasoning: string | undefined;
  /** The tool calls, in order. */
  readonly toolCalls: readonly ToolCall[];
  /** Token usage, when reported. */
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  /** The provider's log-probabilities, when its raw answer carried them (OpenAI format). */
  readonly logprobs: unknown;
  /** The completion's token ids, when the provider returned them (vLLM's `return_token_ids`). */
  readonly tokenIds: unknown;
  /** The prompt's token ids, when the provider returned them (vLLM's `return_token_ids`: `prompt_token_ids` on the response). */
  readonly promptTokenIds: unknown;
  /** Attempts it took. */
  readonly attempts: number;
}
