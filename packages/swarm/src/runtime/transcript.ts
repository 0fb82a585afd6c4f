/**
 * An agent's conversation: the prompt its next model call sends (a language model's prompt,
 * system message first, grown in place: nothing is copied per call) and its transcript in the
 * OpenAI chat format (spec §10's `messages`).
 *
 * @module
 */
import type { LanguageModelV4Message } from '@ai-sdk/provider';
import type { ModelReply } from './model-reply.js';

/** One message in the OpenAI chat format. */
export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly { id: string; type: 'function'; function: { name: string; arguments: string } }[];
      /** The provider's log-probabilities of this reply, when it returned them. */
      readonly logprobs?: unknown;
      /** The reply's token ids, when the provider returned them. */
      readonly token_ids?: unknown;
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** The conversation of one agent: the prompt of its next call, and the OpenAI-format transcript. */
export class Conversation {
  /** The prompt of the next model call, system message first (appended to, never copied). */
  readonly prompt: LanguageModelV4Message[];
  /** The transcript, system prompt first. */
  readonly transcript: ChatMessage[];

  /**
   * @param system - the system prompt
   * @param user - the first user message
   */
  constructor(system: string, user: string) {
    this.transcript = [{ role: 'system', content: system }, { role: 'user', content: user }];
    this.prompt = [{ role: 'system', content: system }, { role: 'user', content: [{ type: 'text', text: user }] }];
  }

  /** Add the model's reply. */
  assistant(reply: ModelReply): void {
    const calls = reply.toolCalls.map((c) => ({
      id: c.id,
      type: 'function' as const,
      function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
    }));
    this.transcript.push({
      role: 'assistant',
      content: reply.text === '' && calls.length > 0 ? null : reply.text,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(reply.logprobs === undefined ? {} : { logprobs: reply.logprobs }),
      ...(reply.tokenIds === undefined ? {} : { token_ids: reply.tokenIds }),
    });
    const content: (LanguageModelV4Message & { role: 'assistant' })['content'] = [];
    if (reply.text !== '') content.push({ type: 'text', text: reply.text });
    for (const c of reply.toolCalls) content.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: typeof c.input === 'object' && c.input !== null ? c.input : {} });
    this.prompt.push({ role: 'assistant', content });
  }

  /** Add the results of the reply's tool calls, in call order. */
  toolResults(results: readonly { id: string; name: string; text: string }[]): void {
    if (results.length === 0) return;
    for (const r of results) this.transcript.push({ role: 'tool', tool_call_id: r.id, content: r.text });
    this.prompt.push({
      role: 'tool',
      content: results.map((r) => ({ type: 'tool-result' as const, toolCallId: r.id, toolName: r.name, output: { type: 'text' as const, value: r.text } })),
    });
  }
}
