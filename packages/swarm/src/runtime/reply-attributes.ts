/**
 * The attributes a `chat` span gets from the model's reply: token usage and attempts.
 *
 * @module
 */
import type { ModelReply } from './model-call.js';

/** `gen_ai.usage.*` and `parl.model.attempts` of a reply. */
export function replyAttributes(reply: ModelReply): Record<string, number> {
  return {
    ...(reply.inputTokens === undefined ? {} : { 'gen_ai.usage.input_tokens': reply.inputTokens }),
    ...(reply.outputTokens === undefined ? {} : { 'gen_ai.usage.output_tokens': reply.outputTokens }),
    'parl.model.attempts': reply.attempts,
  };
}
