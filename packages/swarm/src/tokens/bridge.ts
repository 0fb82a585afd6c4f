/**
 * The bridge (spec §10.5): the text that follows a sampled assistant turn in the next prompt —
 * the end of that turn as the template closes it, the messages added since (tool results, text the
 * runtime adds), and the generation prompt — rendered by the model's own template exactly as it
 * renders them after an assistant turn.
 *
 * It is found by rendering the conversation with the sampled turn replaced by a marker and taking
 * what the template writes after the marker; the stop token the model sampled to end its turn
 * (`<|im_end|>`) is already in the prompt, so it is taken off the bridge's front. Only the bridge
 * is tokenized after the first prompt: the sampled tokens are never re-rendered.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { ChatTemplate } from './chat-template.js';
import type { TemplateMessage, TemplateTool } from './template-messages.js';

/** Stands in for the sampled assistant turn while the template renders what follows it. */
export const ASSISTANT_MARKER = '\u2063PARL-SAMPLED-ASSISTANT-TURN\u2063';

/** What the bridge is rendered from. */
export interface BridgeInput {
  readonly template: ChatTemplate;
  readonly tools: readonly TemplateTool[];
  /** The conversation before the sampled assistant turn (system and user first). */
  readonly before: readonly TemplateMessage[];
  /** The messages added after it (tool results, in call order). */
  readonly added: readonly TemplateMessage[];
  /** The text of the completion's last token when it was the stop token that ended the turn ('' when the completion was cut off). */
  readonly sampledEnd: string;
}

/**
 * The bridge's text.
 *
 * @throws ParlInputError when the template does not render the marker turn exactly once (it
 *   rewrites assistant content, so no bridge can be exact)
 */
export function bridgeText(input: BridgeInput): string {
  const full = input.template.render([...input.before, { role: 'assistant', content: ASSISTANT_MARKER }, ...input.added], input.tools, true);
  const at = full.indexOf(ASSISTANT_MARKER);
  if (at < 0 || full.indexOf(ASSISTANT_MARKER, at + 1) >= 0) {
    throw new ParlInputError('chat_template', input.template.source, 'a chat template that writes an assistant message\'s content once, as it is (token in renders the bridge after it)');
  }
  const after = full.slice(at + ASSISTANT_MARKER.length);
  return input.sampledEnd !== '' && after.startsWith(input.sampledEnd) ? after.slice(input.sampledEnd.length) : after;
}
