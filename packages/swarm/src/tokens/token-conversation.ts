/**
 * The orchestrator's conversation held as token ids (spec §10.5): the first prompt is the chat
 * template over (system, user, tools) with the generation prompt, tokenized; each completion's
 * ids are appended as they were sampled; what is added after a completion (tool results) is
 * appended as its bridge, tokenized on its own. Nothing else is ever tokenized, so the §10.4
 * fields are exact by construction.
 *
 * @module
 */
import { bridgeText } from './bridge.js';
import type { ParsedToolCall } from './parsers/tool-call-parser.js';
import type { TemplateMessage, TemplateTool } from './template-messages.js';
import type { TokenFields } from './token-fields.js';
import type { TokenInModel } from './token-in-model.js';

/** One sampled completion, decoded and parsed. */
export interface SampledTurn {
  /** The completion's text as decoded from its ids. */
  readonly text: string;
  /** Its reasoning, when the reasoning parser split any off. */
  readonly reasoning: string | undefined;
  /** The text that is not reasoning or a tool call (the answer when there are no calls). */
  readonly content: string;
  /** Its tool calls, in order. */
  readonly calls: readonly ParsedToolCall[];
}

/** A token conversation. */
export class TokenConversation {
  /** The messages so far, as the template sees them (used to render bridges, never re-tokenized). */
  private readonly messages: TemplateMessage[];
  private readonly ids: number[];
  private readonly firstPrompt: readonly number[];
  private readonly response: number[] = [];
  private readonly mask: (0 | 1)[] = [];
  private readonly logprobs: number[] = [];
  private turns = 0;
  /** The stop text of the last completion ('' when it was cut off), taken off the next bridge. */
  private sampledEnd = '';

  /**
   * @param model - the tokenizer, template and parsers
   * @param system - the system prompt
   * @param user - the user message
   * @param tools - the orchestrator's tools, as the template declares them
   */
  constructor(
    private readonly model: TokenInModel,
    system: string,
    user: string,
    private readonly tools: readonly TemplateTool[],
  ) {
    this.messages = [{ role: 'system', content: system }, { role: 'user', content: user }];
    this.ids = model.folder.tokenizer.encode(model.folder.template.render(this.messages, tools, true));
    this.firstPrompt = [...this.ids];
  }

  /** The next call's prompt: the first prompt, then every completion and bridge. */
  get prompt(): readonly number[] {
    return this.ids;
  }

  /**
   * Append a completion as sampled and parse it.
   *
   * @param ids - the completion's token ids, as returned
   * @param logprobs - their log-probabilities, as returned (one per id)
   * @param stopped - whether the completion ended on its stop token (not cut off by `max_tokens`)
   */
  sampled(ids: readonly number[], logprobs: readonly number[], stopped: boolean): SampledTurn {
    const { tokenizer } = this.model.folder;
    for (const [i, id] of ids.entries()) {
      this.ids.push(id);
      this.response.push(id);
      this.mask.push(1);
      this.logprobs.push(logprobs[i] ?? 0);
    }
    const last = ids.at(-1);
    this.sampledEnd = stopped && last !== undefined ? tokenizer.decode([last]) : '';
    const text = tokenizer.decode(stopped ? ids.slice(0, -1) : ids);
    const { reasoning, content: rest } = this.model.reasoningParser.split(text);
    const { content, calls } = this.model.toolCallParser.parse(rest, this.turns++);
    this.messages.push({
      role: 'assistant',
      content,
      ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
      ...(calls.length === 0 ? {} : { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }),
    });
    return { text, reasoning, content, calls };
  }

  /**
   * Append the messages added since the last completion (tool results) as their bridge.
   *
   * @returns the bridge's ids
   */
  added(messages: readonly TemplateMessage[]): readonly number[] {
    const before = this.messages.slice(0, -1);
    const text = bridgeText({ template: this.model.folder.template, tools: this.tools, before, added: messages, sampledEnd: this.sampledEnd });
    const bridge = this.model.folder.tokenizer.encode(text);
    for (const id of bridge) {
      this.ids.push(id);
      this.response.push(id);
      this.mask.push(0);
      this.logprobs.push(0);
    }
    this.messages.push(...messages);
    return bridge;
  }

  /** The spec §10.4 fields so far. */
  fields(): TokenFields {
    return { prompt_ids: this.firstPrompt, response_ids: [...this.response], response_mask: [...this.mask], response_logprobs: [...this.logprobs] };
  }
}
