/**
 * Token in's model caller (spec §10.5), the second implementation of the loop's model-call seam:
 * the orchestrator's conversation is a {@link TokenConversation} (the first prompt the chat
 * template over system, user and tools, tokenized; then every completion's ids as sampled and
 * every bridge), each call a completions request on token ids. The loop's own conversation is
 * read only for what was added since the last reply (the tool results), which become the bridge.
 * The caller knows its next prompt's length, so the loop's `context` rule can stop the episode
 * before a prompt that would pass `max_model_len`.
 *
 * @module
 */
import { toolsOf } from '../tools/toolbox.js';
import type { TemplateMessage, TemplateTool } from '../tokens/template-messages.js';
import { TokenConversation } from '../tokens/token-conversation.js';
import type { TokenInModel } from '../tokens/token-in-model.js';
import { callCompletions, type CompletionsEndpoint } from './completions-call.js';
import type { ModelCaller, ModelReply, ModelTurn } from './model-caller.js';
import type { RetryPolicy } from './retries.js';

/** `max_tokens` of a call when no `max_model_len` bounds it (the completions API's own default, 16, is never left to apply). */
export const DEFAULT_TOKEN_IN_MAX_TOKENS = 4096;

/** How the orchestrator is reached with token in. */
export interface TokenInSettings {
  /** Its tokenizer, chat template, parsers and context length, loaded before any request. */
  readonly model: TokenInModel;
  /** The completions endpoint that serves it. */
  readonly endpoint: CompletionsEndpoint;
}

/** The loop's tools as the template declares them (OpenAI function declarations). */
function templateTools(turn: ModelTurn): TemplateTool[] {
  return toolsOf(turn.tools.box).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}

/**
 * A model caller for one episode's orchestrator.
 *
 * @param settings - the loaded model and its endpoint
 * @param retry - the retries of each call
 */
export function tokenInCaller(settings: TokenInSettings, retry: RetryPolicy): ModelCaller {
  const { model, endpoint } = settings;
  let conversation: TokenConversation | undefined;
  /** Transcript messages already in the token conversation. */
  let seen = 0;
  /** Tool names of the last reply's calls, by id (the template's tool messages name their tool). */
  let callNames = new Map<string, string>();

  /** The conversation with everything the loop added since the last reply bridged in: the next prompt. */
  const prepare = (turn: ModelTurn): TokenConversation => {
    const transcript = turn.conversation.transcript;
    if (conversation === undefined) {
      const user = transcript.find((m) => m.role === 'user');
      conversation = new TokenConversation(model, turn.system, user?.content ?? '', templateTools(turn));
      seen = transcript.length;
      return conversation;
    }
    const added: TemplateMessage[] = [];
    for (const m of transcript.slice(seen)) {
      if (m.role === 'tool') added.push({ role: 'tool', tool_call_id: m.tool_call_id, name: callNames.get(m.tool_call_id) ?? '', content: m.content });
      else if (m.role === 'user' || m.role === 'system') added.push({ role: m.role, content: m.content });
    }
    seen = transcript.length;
    if (added.length > 0) conversation.added(added);
    return conversation;
  };

  return {
    name: { provider: 'completions', modelId: endpoint.model },
    fits(turn) {
      const max = model.maxModelLen;
      return max === undefined || prepare(turn).prompt.length < max;
    },
    async call(turn): Promise<ModelReply> {
      const conv = prepare(turn);
      const prompt = [...conv.prompt];
      const maxTokens = model.maxModelLen === undefined ? DEFAULT_TOKEN_IN_MAX_TOKENS : model.maxModelLen - prompt.length;
      const completion = await callCompletions({ endpoint, prompt, maxTokens, signal: turn.signal, retry });
      const sampled = conv.sampled(completion.ids, completion.logprobs, completion.finishReason === 'stop');
      // The loop adds this reply to its transcript: it is in the token conversation already.
      seen = turn.conversation.transcript.length + 1;
      callNames = new Map(sampled.calls.map((c) => [c.id, c.name]));
      return {
        text: sampled.content.trim(),
        reasoning: sampled.reasoning,
        toolCalls: sampled.calls.map((c) => ({ id: c.id, name: c.name, input: c.input, invalid: c.invalid })),
        inputTokens: prompt.length,
        outputTokens: completion.ids.length,
        logprobs: { content: completion.logprobs.map((logprob) => ({ logprob })) },
        tokenIds: [...completion.ids],
        promptTokenIds: prompt,
        attempts: completion.attempts,
      };
    },
  };
}
