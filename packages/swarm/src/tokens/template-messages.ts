/**
 * What a chat template renders: messages in the OpenAI chat format, as Hugging Face templates
 * read them, and the tools as OpenAI function declarations.
 *
 * @module
 */

/** A tool call of an assistant message, OpenAI's shape (`arguments` as JSON text, or the object). */
export interface TemplateToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string | Readonly<Record<string, unknown>> };
}

/** One message a chat template renders. */
export type TemplateMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly reasoning_content?: string; readonly tool_calls?: readonly TemplateToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly name: string; readonly content: string };

/** A tool as a template declares it: OpenAI's function declaration. */
export interface TemplateTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
}
