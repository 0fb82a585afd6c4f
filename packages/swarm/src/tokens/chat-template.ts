/**
 * A model's chat template (Jinja, as `tokenizer_config.json` or `chat_template.jinja` hold it),
 * rendered by `@huggingface/jinja`, loaded only when a run asks for token in.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { TemplateMessage, TemplateTool } from './template-messages.js';

/** A special token of `tokenizer_config.json`: a string, or `{content}` (older configs). */
function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string') return (value as { content: string }).content;
  return undefined;
}

/** A chat template, ready to render. */
export interface ChatTemplate {
  /** Where it came from (a file path, or `tokenizer_config.json`'s `chat_template`), for errors. */
  readonly source: string;
  /**
   * The template's text of `messages`.
   *
   * @throws ParlInputError when the template does not render
   */
  render(messages: readonly TemplateMessage[], tools: readonly TemplateTool[], addGenerationPrompt: boolean): string;
}

/**
 * Parse a chat template.
 *
 * @param text - the Jinja text
 * @param source - where it came from, for errors
 * @param config - the parsed `tokenizer_config.json` (its `bos_token` and `eos_token` are given to the template)
 * @throws ParlInputError when the text does not parse as a template
 */
export async function chatTemplate(text: string, source: string, config: Readonly<Record<string, unknown>>): Promise<ChatTemplate> {
  const { Template } = await import('@huggingface/jinja');
  let template: InstanceType<typeof Template>;
  try {
    template = new Template(text);
  } catch (err) {
    throw new ParlInputError('chat_template', source, `a Jinja chat template (${err instanceof Error ? err.message : String(err)})`);
  }
  const specials = { bos_token: tokenText(config['bos_token']) ?? '', eos_token: tokenText(config['eos_token']) ?? '' };
  return {
    source,
    render(messages, tools, addGenerationPrompt) {
      try {
        return template.render({
          messages: messages.map((m) => ({ ...m })),
          ...(tools.length > 0 ? { tools: tools.map((t) => ({ ...t })) } : {}),
          add_generation_prompt: addGenerationPrompt,
          ...specials,
        });
      } catch (err) {
        throw new ParlInputError('chat_template', source, `a chat template that renders the conversation (${err instanceof Error ? err.message : String(err)})`);
      }
    },
  };
}
