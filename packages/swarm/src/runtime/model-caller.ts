/**
 * The model call as the agent loop sees it: one seam, "given the agent's turn, make one model
 * call and say what came back". The chat model call of a `LanguageModel` (`model-call.ts`) is one
 * implementation; a token-in call (spec §10.5) is another.
 *
 * @module
 */
import type { AgentTools } from './agent-tools.js';
import type { ModelReply } from './model-reply.js';
import type { Conversation } from './transcript.js';

export type { ModelReply } from './model-reply.js';

/** One agent's turn: what a model call is made from. */
export interface ModelTurn {
  /** The agent's system prompt. */
  readonly system: string;
  /** The agent's conversation so far (its messages and its transcript). */
  readonly conversation: Conversation;
  /** The tools the model is offered. */
  readonly tools: AgentTools;
  /** Aborts the call (the episode stopped or was cancelled). */
  readonly signal: AbortSignal;
}

/** Makes an agent's model calls. */
export interface ModelCaller {
  /** The model, as the `chat` spans name it. */
  readonly name: { readonly provider: string; readonly modelId: string };
  /**
   * Make one model call.
   *
   * @throws {@link SwarmProviderError} when the model failed after its retries;
   *   {@link EpisodeStopped} when `turn.signal` aborted
   */
  call(turn: ModelTurn): Promise<ModelReply>;
  /** Whether the next call's prompt fits the model's context; absent: it always does. */
  fits?(turn: ModelTurn): boolean;
}
